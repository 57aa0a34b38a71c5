#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension KSCrashReport {
    /// Reports are at most a few megabytes; this is the limit `CrashReport` uses too.
    public static let maxSize = 64 << 20
    // Bounds on what one report may hold, far above real ones.
    static let maxThreads = 10_000
    static let maxFrames = 100_000
    static let maxImages = 100_000

    /// Reads a KSCrash or SentryCrash JSON report (format 2.x or 3.x).
    public init(bytes: [UInt8]) throws(KSCrashReportError) {
        guard bytes.count <= Self.maxSize else { throw KSCrashReportError.tooLarge(size: bytes.count, limit: Self.maxSize) }
        do { try JSONNesting.check(bytes) } catch { throw KSCrashReportError.nestedTooDeep(error) }
        let raw: RawReport
        do {
            raw = try JSONDecoder().decode(RawReport.self, from: Data(bytes))
        } catch let error as KSCrashReportError {
            throw error
        } catch {
            throw KSCrashReportError.malformed(Self.describe(error))
        }
        try self.init(raw: raw)
    }

    init(raw: RawReport) throws(KSCrashReportError) {
        formatVersion = raw.report.version.text
        guard raw.report.version.major == 2 || raw.report.version.major == 3 else {
            throw KSCrashReportError.unsupportedVersion(formatVersion)
        }
        reportID = raw.report.id
        reportType = raw.report.type
        timestamp = raw.report.timestamp?.text
        let rawSystem = raw.system
        processName = rawSystem?.processName ?? raw.report.processName
        system = System(systemName: rawSystem?.systemName, systemVersion: rawSystem?.systemVersion, osBuild: rawSystem?.osVersion,
                        machine: rawSystem?.machine, model: rawSystem?.model, cpuArchitecture: rawSystem?.cpuArch,
                        bundleIdentifier: rawSystem?.bundleIdentifier, shortVersion: rawSystem?.shortVersion,
                        bundleVersion: rawSystem?.bundleVersion, executable: rawSystem?.executable,
                        appUUID: rawSystem?.appUUID.flatMap(UUID.init(uuidString:)))
        guard let crash = raw.crash else { throw KSCrashReportError.missingSection("crash") }
        error = crash.error.map(Self.error)
        diagnosis = crash.diagnosis
        var rawThreads = crash.threads ?? []
        if rawThreads.isEmpty, let only = crash.crashedThread {
            // Minimal reports hold just the crashed thread.
            var thread = only
            thread.crashed = true
            rawThreads = [thread]
        }
        guard rawThreads.count <= Self.maxThreads else { throw KSCrashReportError.tooMany("threads", rawThreads.count, Self.maxThreads) }
        let frameCount = rawThreads.reduce(0) { $0 + ($1.backtrace?.contents?.count ?? 0) }
        guard frameCount <= Self.maxFrames else { throw KSCrashReportError.tooMany("frames", frameCount, Self.maxFrames) }
        threads = rawThreads.enumerated().map { position, thread in
            Thread(index: thread.index ?? position, name: thread.name, queue: thread.dispatchQueue, crashed: thread.crashed ?? false,
                   frames: (thread.backtrace?.contents ?? []).map {
                       Frame(instructionAddress: $0.instructionAddress, objectAddress: $0.objectAddress, objectName: $0.objectName,
                             symbolAddress: $0.symbolAddress, symbolName: $0.symbolName)
                   })
        }
        hasBinaryImages = raw.binaryImages != nil
        let rawImages = raw.binaryImages ?? []
        guard rawImages.count <= Self.maxImages else { throw KSCrashReportError.tooMany("binary images", rawImages.count, Self.maxImages) }
        var images: [Image] = []
        for (position, image) in rawImages.enumerated() {
            var uuid: UUID?
            if let text = image.uuid {
                guard let parsed = UUID(uuidString: text) else {
                    throw KSCrashReportError.malformed("binary image \(position + 1) has the UUID \"\(text.prefix(40))\", which is not a UUID")
                }
                uuid = parsed
            }
            let architecture = image.cpuType.map { MachOArchitecture(cpuType: $0, cpuSubtype: image.cpuSubtype ?? 0) }
            images.append(Image(path: image.name ?? "???", uuid: uuid, architecture: architecture, loadAddress: image.imageAddress,
                                size: image.imageSize))
        }
        self.images = images
    }

    static func error(_ raw: RawError) -> Error {
        Error(type: raw.type, address: raw.address?.bits, reason: raw.reason, machException: raw.mach?.exceptionName,
              machCode: raw.mach?.codeName ?? raw.mach?.code.map { "0x" + String($0.bits, radix: 16) },
              signal: raw.signal?.name, signalCode: raw.signal?.codeName, exceptionName: raw.nsexception?.name,
              exceptionReason: raw.nsexception?.reason, cppExceptionName: raw.cppException?.name, userReportedName: raw.userReported?.name)
    }

    /// A decoding error as a clause naming the JSON path, for messages.
    static func describe(_ error: any Swift.Error) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
        }
        switch error {
        case let DecodingError.typeMismatch(type, context):
            return "\(path(context.codingPath)) is not \(Self.typeName(type))"
        case let DecodingError.valueNotFound(type, context):
            return "\(path(context.codingPath)) is null where \(Self.typeName(type)) belongs"
        case let DecodingError.keyNotFound(key, context):
            return "\(path(context.codingPath + [key])) is missing"
        case let DecodingError.dataCorrupted(context):
            return context.codingPath.isEmpty ? "the file is not valid JSON (\(context.debugDescription))"
                : "\(path(context.codingPath)): \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }

    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "a boolean"
        case is Int.Type, is Int32.Type, is Int64.Type, is UInt64.Type: return "an integer"
        case is RawVersion.Type: return "a version"
        default: return String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}

// MARK: - The JSON layout

/// An integer as KSCrash writes it: unsigned for addresses, signed (possibly negative) for codes
/// that may carry an address. Either way the 64 bits are kept.
struct RawInteger: Decodable, Equatable {
    var bits: UInt64

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let unsigned = try? container.decode(UInt64.self) {
            bits = unsigned
        } else {
            bits = UInt64(bitPattern: try container.decode(Int64.self))
        }
    }
}

/// `report.version`: `{"major": 2, "minor": 0}` in format 2, `"3.4.0"` in format 3.
struct RawVersion: Decodable {
    var major: Int
    var text: String

    private struct Parts: Decodable {
        var major: Int
        var minor: Int?
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            guard let first = string.split(separator: ".").first, let major = Int(first), major >= 0 else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\"\(string.prefix(20))\" is not a version number"))
            }
            self.major = major
            text = string
        } else {
            let parts = try container.decode(Parts.self)
            major = parts.major
            text = "\(parts.major).\(parts.minor ?? 0)"
        }
    }
}

/// `report.timestamp`: RFC 3339 text, or (raw format 3 reports) seconds or microseconds since 1970.
struct RawTimestamp: Decodable {
    var text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            text = string
            return
        }
        let number = try container.decode(Int64.self)
        // Microsecond timestamps are beyond year 33658 when read as seconds.
        let seconds = number > 1_000_000_000_000 ? number / 1_000_000 : number
        text = UTCDateComponents(Date(timeIntervalSince1970: Double(seconds)))?.iso8601 ?? String(number)
    }
}

struct RawReport: Decodable {
    struct Info: Decodable {
        var version: RawVersion
        var id: String?
        var processName: String?
        var timestamp: RawTimestamp?
        var type: String?
        enum CodingKeys: String, CodingKey { case version, id, processName = "process_name", timestamp, type }
    }

    struct System: Decodable {
        var systemName, systemVersion, osVersion, machine, model, cpuArch, bundleIdentifier, shortVersion, bundleVersion: String?
        var executable, processName, appUUID: String?
        enum CodingKeys: String, CodingKey {
            case systemName = "system_name", systemVersion = "system_version", osVersion = "os_version", machine, model
            case cpuArch = "cpu_arch", bundleIdentifier = "CFBundleIdentifier", shortVersion = "CFBundleShortVersionString"
            case bundleVersion = "CFBundleVersion", executable = "CFBundleExecutable", processName = "process_name", appUUID = "app_uuid"
        }
    }

    struct Crash: Decodable {
        var error: RawError?
        var threads: [RawThread]?
        var crashedThread: RawThread?
        var diagnosis: String?
        enum CodingKeys: String, CodingKey { case error, threads, crashedThread = "crashed_thread", diagnosis }
    }

    var report: Info
    var system: System?
    var crash: Crash?
    var binaryImages: [RawImage]?
    enum CodingKeys: String, CodingKey { case report, system, crash, binaryImages = "binary_images" }
}

struct RawError: Decodable {
    struct Mach: Decodable {
        var exceptionName, codeName: String?
        var code: RawInteger?
        enum CodingKeys: String, CodingKey { case exceptionName = "exception_name", codeName = "code_name", code }
    }
    struct Signal: Decodable {
        var name, codeName: String?
        enum CodingKeys: String, CodingKey { case name, codeName = "code_name" }
    }
    struct Named: Decodable {
        var name: String?
        var reason: String?
    }

    var type: String?
    var address: RawInteger?
    var reason: String?
    var mach: Mach?
    var signal: Signal?
    var nsexception: Named?
    var cppException: Named?
    var userReported: Named?
    enum CodingKeys: String, CodingKey {
        case type, address, reason, mach, signal, nsexception, cppException = "cpp_exception", userReported = "user_reported"
    }
}

struct RawThread: Decodable {
    struct Backtrace: Decodable { var contents: [RawFrame]? }
    var index: Int?
    var name: String?
    var dispatchQueue: String?
    var crashed: Bool?
    var backtrace: Backtrace?
    enum CodingKeys: String, CodingKey { case index, name, dispatchQueue = "dispatch_queue", crashed, backtrace }
}

struct RawFrame: Decodable {
    var instructionAddress: UInt64
    var objectAddress: UInt64?
    var objectName: String?
    var symbolAddress: UInt64?
    var symbolName: String?
    enum CodingKeys: String, CodingKey {
        case instructionAddress = "instruction_addr", objectAddress = "object_addr", objectName = "object_name"
        case symbolAddress = "symbol_addr", symbolName = "symbol_name"
    }
}

struct RawImage: Decodable {
    var imageAddress: UInt64
    var imageSize: UInt64?
    var name: String?
    var uuid: String?
    var cpuType: Int32?
    var cpuSubtype: Int32?
    enum CodingKeys: String, CodingKey {
        case imageAddress = "image_addr", imageSize = "image_size", name, uuid, cpuType = "cpu_type", cpuSubtype = "cpu_subtype"
    }
}
