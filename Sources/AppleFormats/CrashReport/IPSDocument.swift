#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON of `.ips` files, decoded leniently: a field of an unexpected type reads as absent
/// instead of failing the whole report, so damaged reports still give what they can.
struct IPSHeader: Decodable {
    var appName, appVersion, buildVersion, bundleID, osVersion, incidentID, name, timestamp: String?
    var bugType: String?

    enum CodingKeys: String, CodingKey {
        case appName = "app_name", appVersion = "app_version", buildVersion = "build_version", bundleID
        case osVersion = "os_version", incidentID = "incident_id", name, timestamp, bugType = "bug_type"
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        appName = c.lenient(.appName)
        appVersion = c.lenient(.appVersion)
        buildVersion = c.lenient(.buildVersion)
        bundleID = c.lenient(.bundleID)
        osVersion = c.lenient(.osVersion)
        incidentID = c.lenient(.incidentID)
        name = c.lenient(.name)
        timestamp = c.lenient(.timestamp)
        bugType = c.lenientString(.bugType)
    }
}

struct IPSBody: Decodable {
    struct OSVersion: Decodable { var train: String?; var build: String? }
    struct BundleInfo: Decodable {
        var shortVersion: String?, version: String?, identifier: String?
        enum CodingKeys: String, CodingKey {
            case shortVersion = "CFBundleShortVersionString", version = "CFBundleVersion", identifier = "CFBundleIdentifier"
        }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            shortVersion = c.lenientString(.shortVersion)
            version = c.lenientString(.version)
            identifier = c.lenient(.identifier)
        }
    }
    struct Exception: Decodable { var type, signal, codes, subtype, message: String? }
    struct Termination: Decodable {
        var namespace: String?, code: Int64?, indicator: String?
        enum CodingKeys: String, CodingKey { case namespace, code, indicator }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            namespace = c.lenient(.namespace)
            code = c.lenient(.code)
            indicator = c.lenient(.indicator)
        }
    }
    struct Frame: Decodable {
        var imageOffset: UInt64?, imageIndex: Int?, symbol: String?, symbolLocation: UInt64?, sourceFile: String?, sourceLine: Int?
        enum CodingKeys: String, CodingKey { case imageOffset, imageIndex, symbol, symbolLocation, sourceFile, sourceLine }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            imageOffset = c.lenient(.imageOffset)
            imageIndex = c.lenient(.imageIndex)
            symbol = c.lenient(.symbol)
            symbolLocation = c.lenient(.symbolLocation)
            sourceFile = c.lenient(.sourceFile)
            sourceLine = c.lenient(.sourceLine)
        }
    }
    struct Thread: Decodable {
        var triggered: Bool?, name: String?, queue: String?, frames: [Frame]
        enum CodingKeys: String, CodingKey { case triggered, name, queue, frames }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            triggered = c.lenient(.triggered)
            name = c.lenient(.name)
            queue = c.lenient(.queue)
            frames = c.lenientArray(.frames)
        }
    }
    struct Image: Decodable {
        var arch, uuid, path, name, bundleIdentifier: String?
        var base: UInt64?, size: UInt64?
        enum CodingKeys: String, CodingKey { case arch, uuid, path, name, base, size, bundleIdentifier = "CFBundleIdentifier" }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            arch = c.lenient(.arch)
            uuid = c.lenient(.uuid)
            path = c.lenient(.path)
            name = c.lenient(.name)
            bundleIdentifier = c.lenient(.bundleIdentifier)
            base = c.lenient(.base)
            size = c.lenient(.size)
        }
    }

    var incident, modelCode, cpuType, procName, procPath, captureTime: String?
    var pid: Int?
    var translated: Bool?
    var osVersion: OSVersion?
    var bundleInfo: BundleInfo?
    var exception: Exception?
    var termination: Termination?
    var faultingThread: Int?
    var threads: [Thread]
    var usedImages: [Image]
    var lastExceptionBacktrace: [Frame]?
    var asi: [String: [String]]?
    var bugType: String?

    enum CodingKeys: String, CodingKey {
        case incident, modelCode, cpuType, procName, procPath, captureTime, pid, translated, osVersion, bundleInfo, exception
        case termination, faultingThread, threads, usedImages, lastExceptionBacktrace, asi, bugType = "bug_type"
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        incident = c.lenient(.incident)
        modelCode = c.lenient(.modelCode)
        cpuType = c.lenient(.cpuType)
        procName = c.lenient(.procName)
        procPath = c.lenient(.procPath)
        captureTime = c.lenient(.captureTime)
        pid = c.lenient(.pid)
        translated = c.lenient(.translated)
        osVersion = c.lenient(.osVersion)
        bundleInfo = c.lenient(.bundleInfo)
        exception = c.lenient(.exception)
        termination = c.lenient(.termination)
        faultingThread = c.lenient(.faultingThread)
        threads = c.lenientArray(.threads)
        usedImages = c.lenientArray(.usedImages)
        lastExceptionBacktrace = c.contains(.lastExceptionBacktrace) ? c.lenientArray(.lastExceptionBacktrace) : nil
        asi = c.lenient(.asi)
        bugType = c.lenientString(.bugType)
    }
}

extension KeyedDecodingContainer {
    func lenient<T: Decodable>(_ key: Key) -> T? {
        (try? decodeIfPresent(T.self, forKey: key)) ?? nil
    }

    /// A string, or a number written where a string was expected (`"bug_type": 309`).
    func lenientString(_ key: Key) -> String? {
        if let text: String = lenient(key) { return text }
        if let number: Int64 = lenient(key) { return String(number) }
        return nil
    }

    /// The decodable elements of an array; elements that fail to decode are dropped.
    func lenientArray<T: Decodable>(_ key: Key) -> [T] {
        guard var array = try? nestedUnkeyedContainer(forKey: key) else { return [] }
        var result: [T] = []
        while !array.isAtEnd {
            if let element = try? array.decode(T.self) {
                result.append(element)
            } else if (try? array.decode(Skip.self)) == nil {
                break
            }
        }
        return result
    }
}

/// Consumes one JSON value of any type.
private struct Skip: Decodable {
    init(from decoder: any Decoder) throws {}
}
