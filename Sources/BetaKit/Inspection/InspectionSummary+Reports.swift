#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// A frame as `inspect` shows it.
public struct FrameSummary: Encodable, Sendable, Equatable {
    /// The frame number.
    public var number: Int
    /// The absolute address, `0x…`.
    public var address: String
    /// The image it is in, when known.
    public var image: String?
    /// A symbol the report already carries.
    public var symbol: String?
}

/// A thread with its frames.
public struct ThreadSummary: Encodable, Sendable, Equatable {
    /// The thread number.
    public var number: Int
    /// The thread's name.
    public var name: String?
    /// Its dispatch queue.
    public var queue: String?
    /// Its frames, innermost first (at most `maxFrames`).
    public var frames: [FrameSummary]

    /// Frames shown per thread; a summary, not the whole report.
    static let maxFrames = 64

    /// Summarises `thread` of `report`.
    init(_ thread: CrashReport.Thread, in report: CrashReport) {
        number = thread.number
        name = thread.name
        queue = thread.queue
        frames = thread.frames.prefix(Self.maxFrames).map { frame in
            FrameSummary(number: frame.number, address: "0x" + String(frame.address, radix: 16),
                         image: frame.imageName ?? report.image(for: frame)?.name, symbol: frame.symbol)
        }
    }
}

/// A loaded image of a report.
public struct ImageSummary: Encodable, Sendable, Equatable {
    /// The image's name.
    public var name: String
    /// Its UUID, which selects the dSYM.
    public var uuid: String?
    /// Its architecture.
    public var arch: String?
    /// Its load address, `0x…`.
    public var loadAddress: String
}

/// An exception as `inspect` shows it.
public struct ExceptionSummary: Encodable, Sendable, Equatable {
    /// The exception type, such as `EXC_BAD_ACCESS`.
    public var type: String?
    /// The signal.
    public var signal: String?
    /// The codes.
    public var codes: String?
    /// The subtype, such as `KERN_INVALID_ADDRESS at 0x0`.
    public var subtype: String?
    /// A note or message.
    public var note: String?
}

/// The `crash-report` kind (and the log of a `hockeyapp-crash-xml`).
public struct CrashReportSummary: Encodable, Sendable, Equatable {
    /// `text`, `ips`, `ipsText` or `kscrash`.
    public var format: String
    /// The `.ips` bug_type, when the file has one.
    public var bugType: String?
    /// The process name.
    public var process: String?
    /// The bundle identifier.
    public var bundleId: String?
    /// The marketing version.
    public var version: String?
    /// The build number.
    public var build: String?
    /// The OS version.
    public var os: String?
    /// The model code.
    public var hardwareModel: String?
    /// The incident identifier.
    public var incident: String?
    /// The date as written.
    public var date: String?
    /// What stopped the process.
    public var exception: ExceptionSummary?
    /// The termination reason.
    public var terminationReason: String?
    /// The crashed thread.
    public var crashedThread: ThreadSummary?
    /// How many threads the report has.
    public var threads: Int
    /// The loaded images.
    public var images: [ImageSummary]

    /// Summarises `report`.
    public init(_ report: CrashReport) {
        format = report.format.rawValue
        bugType = report.bugType
        process = report.processName
        bundleId = report.bundleIdentifier
        version = report.version
        build = report.build
        os = report.osVersion
        hardwareModel = report.hardwareModel
        incident = report.incidentIdentifier
        date = report.date
        exception = report.exception.map { ExceptionSummary(type: $0.type, signal: $0.signal, codes: $0.codes, subtype: $0.subtype, note: $0.note) }
        terminationReason = report.terminationReason
        crashedThread = report.crashingThread.map { ThreadSummary($0, in: report) }
        threads = report.threads.count
        images = report.images.map {
            ImageSummary(name: $0.name, uuid: $0.uuid?.uuidString, arch: $0.architecture, loadAddress: "0x" + String($0.loadAddress, radix: 16))
        }
    }
}

/// One process of a jetsam report.
public struct JetsamProcessSummary: Encodable, Sendable, Equatable {
    /// The process name.
    public var name: String
    /// Its pid.
    public var pid: Int?
    /// Resident pages.
    public var pages: Int
    /// Resident bytes (pages × page size), when the page size is known.
    public var bytes: Int?
    /// Why it was killed; absent for processes left running.
    public var reason: String?
    /// Its states (`frontmost`, `suspended`, …).
    public var states: [String]
}

/// The `jetsam-report` kind.
public struct JetsamSummary: Encodable, Sendable, Equatable {
    /// Always "298".
    public var bugType: String
    /// The OS.
    public var os: String?
    /// The model code.
    public var hardwareModel: String?
    /// The incident identifier.
    public var incident: String?
    /// The date as written.
    public var date: String?
    /// Bytes per page.
    public var pageSize: Int?
    /// The process using the most memory, as the report names it.
    public var largestProcess: String?
    /// The processes, largest first.
    public var processes: [JetsamProcessSummary]
    /// The names of the processes that were killed.
    public var killed: [String]

    /// Summarises `report`.
    public init(_ report: JetsamReport) {
        bugType = IPSBugType.jetsam
        os = report.osVersion
        hardwareModel = report.hardwareModel
        incident = report.incident
        date = report.date
        pageSize = report.pageSize
        largestProcess = report.largestProcess
        processes = report.processesBySize.map {
            JetsamProcessSummary(name: $0.name, pid: $0.pid, pages: $0.residentPages, bytes: report.bytes(ofPages: $0.residentPages),
                                 reason: $0.reason, states: $0.states)
        }
        killed = report.killedProcesses.map(\.name)
    }
}

/// The `diagnostic-report` kind.
public struct DiagnosticSummary: Encodable, Sendable, Equatable {
    /// The bug_type.
    public var bugType: String
    /// Its name, such as `cpu_resource`, when known.
    public var bugTypeName: String?
    /// The process or report name from the header.
    public var name: String?
    /// The OS from the header.
    public var os: String?
    /// The incident identifier.
    public var incident: String?
    /// The timestamp as written.
    public var timestamp: String?
    /// `json`, `text` or `empty`.
    public var body: String
    /// The JSON body's top-level keys.
    public var bodyKeys: [String]?
    /// The text body's first line.
    public var firstLine: String?

    /// Summarises `report`.
    public init(_ report: DiagnosticReport) {
        bugType = report.bugType
        bugTypeName = report.bugTypeName
        name = report.header.appName ?? report.header.name
        os = report.header.osVersion
        incident = report.header.incidentID
        timestamp = report.header.timestamp
        switch report.body {
        case .empty: body = "empty"
        case let .json(keys): body = "json"; bodyKeys = keys
        case let .text(line): body = "text"; firstLine = line
        }
    }
}
