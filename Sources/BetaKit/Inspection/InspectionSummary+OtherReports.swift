#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// The `kscrash-report` kind.
public struct KSCrashSummary: Encodable, Sendable, Equatable {
    /// The format version, such as "3.4.0".
    public var version: String
    /// `standard`, `minimal` or `custom`.
    public var reportType: String?
    /// The process name.
    public var process: String?
    /// The bundle identifier.
    public var bundleId: String?
    /// The marketing version.
    public var appVersion: String?
    /// The build number.
    public var build: String?
    /// The OS.
    public var os: String?
    /// The model code.
    public var hardwareModel: String?
    /// The timestamp.
    public var timestamp: String?
    /// What stopped the process.
    public var exception: KSCrashExceptionSummary?
    /// The crashed thread.
    public var crashedThread: ThreadSummary?
    /// Whether the report has `binary_images`.
    public var hasBinaryImages: Bool
    /// The loaded images.
    public var images: [ImageSummary]

    /// Summarises `report`.
    public init(_ report: KSCrashReport) {
        version = report.formatVersion
        reportType = report.reportType
        process = report.processName
        bundleId = report.system.bundleIdentifier
        appVersion = report.system.shortVersion
        build = report.system.bundleVersion
        os = report.system.osDescription
        hardwareModel = report.system.machine
        timestamp = report.timestamp
        exception = report.error.map {
            KSCrashExceptionSummary(type: $0.type, name: $0.name, reason: $0.exceptionReason ?? $0.reason, machException: $0.machException,
                                    machCode: $0.machCode, signal: $0.signal, address: $0.address.map { "0x" + String($0, radix: 16) })
        }
        let converted = report.crashReport()
        crashedThread = converted.crashingThread.map { ThreadSummary($0, in: converted) }
        hasBinaryImages = report.hasBinaryImages
        images = report.images.map {
            ImageSummary(name: $0.name, uuid: $0.uuid?.uuidString, arch: $0.architecture?.name, loadAddress: "0x" + String($0.loadAddress, radix: 16))
        }
    }
}

/// A KSCrash error.
public struct KSCrashExceptionSummary: Encodable, Sendable, Equatable {
    /// `mach`, `signal`, `nsexception`, …
    public var type: String?
    /// The most specific name.
    public var name: String?
    /// The reason.
    public var reason: String?
    /// The Mach exception.
    public var machException: String?
    /// The Mach code.
    public var machCode: String?
    /// The signal.
    public var signal: String?
    /// The faulting address.
    public var address: String?
}

/// The `hockeyapp-crash-xml` kind.
public struct HockeyAppSummary: Encodable, Sendable, Equatable {
    /// The first crash's bundle identifier.
    public var bundleId: String?
    /// Its build number (`version`).
    public var version: String?
    /// Its marketing version (`versionstring`).
    public var versionString: String?
    /// Its application name.
    public var applicationName: String?
    /// Its model code.
    public var platform: String?
    /// Its OS version.
    public var systemVersion: String?
    /// Its binary images' UUIDs.
    public var uuids: [HockeyAppUUIDSummary]
    /// Its log, read as a crash report.
    public var log: CrashReportSummary?
    /// Why the log could not be read, when it could not.
    public var logProblem: String?
    /// How many crashes the document holds.
    public var crashes: Int

    /// Summarises the first crash of `upload`.
    public init(_ upload: HockeyAppCrashUpload) {
        let crash = upload.crashes.first
        bundleId = crash?.bundleIdentifier
        version = crash?.version
        versionString = crash?.versionString
        applicationName = crash?.applicationName
        platform = crash?.platform
        systemVersion = crash?.systemVersion
        uuids = (crash?.binaryUUIDs ?? []).map { HockeyAppUUIDSummary(uuid: $0.uuid.uuidString, arch: $0.architecture, type: $0.type) }
        crashes = upload.crashes.count
        if let crash {
            do { log = CrashReportSummary(try crash.report()) } catch { logProblem = error.description }
        }
    }
}

/// A binary image named by a HockeySDK upload.
public struct HockeyAppUUIDSummary: Encodable, Sendable, Equatable {
    /// The UUID.
    public var uuid: String
    /// The architecture.
    public var arch: String?
    /// `app` or `framework`.
    public var type: String?
}

/// The `plcrash` kind.
public struct PLCrashSummary: Encodable, Sendable, Equatable {
    /// The format version byte.
    public var formatVersion: Int
    /// The protobuf's size.
    public var payloadSize: Int
    /// How to convert it.
    public var convert: String

    /// Summarises `file`.
    public init(_ file: PLCrashReporterFile) {
        formatVersion = Int(file.formatVersion)
        payloadSize = file.payloadSize
        convert = PLCrashReporterFile.conversionHint
    }
}

/// The `kscrash-batch` kind: a JSON array of KSCrash reports, each read on its own as the server's
/// intake reads it, so one damaged report is named without hiding the others.
public struct KSCrashBatchSummary: Encodable, Sendable, Equatable {
    /// One element of the array.
    public struct Entry: Encodable, Sendable, Equatable {
        /// Its position in the array, from 0.
        public var index: Int
        /// Its summary, when it reads as a KSCrash report.
        public var report: KSCrashSummary?
        /// Why it does not, otherwise.
        public var problem: String?
    }

    /// How many reports the array holds.
    public var count: Int
    /// Every report, in order.
    public var reports: [Entry]

    /// Reads each of `ranges` (from `KSCrashBatch.split`) in `bytes`.
    public init(_ bytes: [UInt8], ranges: [Range<Int>]) {
        count = ranges.count
        reports = ranges.enumerated().map { index, range in
            do {
                return Entry(index: index, report: KSCrashSummary(try KSCrashReport(bytes: Array(bytes[range]))), problem: nil)
            } catch {
                return Entry(index: index, report: nil, problem: "\(error)")
            }
        }
    }
}
