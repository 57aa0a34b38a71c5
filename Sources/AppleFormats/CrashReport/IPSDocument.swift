#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON of `.ips` files, decoded leniently (see `Lenient`): a field of an unexpected type
/// reads as absent instead of failing the whole report, so damaged reports still give what they can.
struct IPSHeader: Decodable {
    @Lenient var appName: String?
    @Lenient var appVersion: String?
    @Lenient var buildVersion: String?
    @Lenient var bundleID: String?
    @Lenient var osVersion: String?
    @Lenient var incidentID: String?
    @Lenient var name: String?
    @Lenient var timestamp: String?
    @LenientString var bugType: String?

    enum CodingKeys: String, CodingKey {
        case appName = "app_name", appVersion = "app_version", buildVersion = "build_version", bundleID
        case osVersion = "os_version", incidentID = "incident_id", name, timestamp, bugType = "bug_type"
    }
}

struct IPSBody: Decodable {
    struct OSVersion: Decodable { var train: String?; var build: String? }
    struct BundleInfo: Decodable {
        @LenientString var shortVersion: String?
        @LenientString var version: String?
        @Lenient var identifier: String?
        enum CodingKeys: String, CodingKey {
            case shortVersion = "CFBundleShortVersionString", version = "CFBundleVersion", identifier = "CFBundleIdentifier"
        }
    }
    struct Exception: Decodable { var type, signal, codes, subtype, message: String? }
    struct Termination: Decodable {
        @Lenient var namespace: String?
        @Lenient var code: Int64?
        @Lenient var indicator: String?
    }
    struct Frame: Decodable {
        @Lenient var imageOffset: UInt64?
        @Lenient var imageIndex: Int?
        @Lenient var symbol: String?
        @Lenient var symbolLocation: UInt64?
        @Lenient var sourceFile: String?
        @Lenient var sourceLine: Int?
    }
    struct Thread: Decodable {
        @Lenient var triggered: Bool?
        @Lenient var name: String?
        @Lenient var queue: String?
        @LenientArray var frames: [Frame]
    }
    struct Image: Decodable {
        @Lenient var arch: String?
        @Lenient var uuid: String?
        @Lenient var path: String?
        @Lenient var name: String?
        @Lenient var bundleIdentifier: String?
        @Lenient var base: UInt64?
        @Lenient var size: UInt64?
        enum CodingKeys: String, CodingKey { case arch, uuid, path, name, base, size, bundleIdentifier = "CFBundleIdentifier" }
    }

    @Lenient var incident: String?
    @Lenient var modelCode: String?
    @Lenient var cpuType: String?
    @Lenient var procName: String?
    @Lenient var procPath: String?
    @Lenient var captureTime: String?
    @Lenient var pid: Int?
    @Lenient var translated: Bool?
    @Lenient var osVersion: OSVersion?
    @Lenient var bundleInfo: BundleInfo?
    @Lenient var exception: Exception?
    @Lenient var termination: Termination?
    @Lenient var faultingThread: Int?
    @LenientArray var threads: [Thread]
    @LenientArray var usedImages: [Image]
    /// Nil when the report has none (absent is not the same as empty here).
    @OptionalLenientArray var lastExceptionBacktrace: [Frame]?
    @Lenient var asi: [String: [String]]?
    @LenientString var bugType: String?

    enum CodingKeys: String, CodingKey {
        case incident, modelCode, cpuType, procName, procPath, captureTime, pid, translated, osVersion, bundleInfo, exception
        case termination, faultingThread, threads, usedImages, lastExceptionBacktrace, asi, bugType = "bug_type"
    }
}
