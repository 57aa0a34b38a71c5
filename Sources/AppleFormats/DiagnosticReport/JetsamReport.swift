#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A jetsam event report (`JetsamEvent-….ips`, bug_type 298): the memory state of the device
/// when iOS killed processes to free memory, and every process with its resident pages.
///
/// There are no backtraces. What matters is the page size, the largest process and which
/// processes were killed and why (`reason`: `per-process-limit`, `vm-pageshortage`, …).
public struct JetsamReport: Sendable, Equatable {
    /// The header line, when the file has one.
    public var header: IPSReportHeader?
    /// The OS (`build`, else the header's `os_version`), such as "iPhone OS 17.4 (21E219)".
    public var osVersion: String?
    /// The model code (`product`), such as "iPhone14,5".
    public var hardwareModel: String?
    /// `incident`.
    public var incident: String?
    /// `date`, as written.
    public var date: String?
    /// Bytes per memory page (`pageSize`, at the top level or in `memoryStatus`).
    public var pageSize: Int?
    /// `largestProcess`: the process using the most memory.
    public var largestProcess: String?
    /// `memoryStatus.memoryPages`: the device's pages by state (free, active, wired, …).
    public var memoryPages: [String: Int]
    /// Every process listed, in report order.
    public var processes: [Process]

    /// One process of the report.
    public struct Process: Sendable, Equatable {
        /// The process name.
        public var name: String
        /// The process id.
        public var pid: Int?
        /// The main executable's UUID.
        public var uuid: UUID?
        /// `rpages`: resident pages.
        public var residentPages: Int
        /// Why it was killed (`per-process-limit`, `vm-pageshortage`, …); nil for processes left running.
        public var reason: String?
        /// States such as `frontmost`, `suspended`.
        public var states: [String]
        /// `lifetimeMax`: the most pages it ever held.
        public var lifetimeMaxPages: Int?
    }

    // A device runs a few hundred processes; this bounds hostile input.
    static let maxProcesses = 20_000

    /// Reads a jetsam report, with or without its header line.
    public init(bytes: [UInt8]) throws(DiagnosticReportError) {
        guard bytes.count <= DiagnosticReport.maxSize else { throw DiagnosticReportError.tooLarge(size: bytes.count, limit: DiagnosticReport.maxSize) }
        var bodyStart = 0
        if let (header, start) = IPSReportHeader.split(bytes), start < bytes.count {
            guard header.bugType == IPSBugType.jetsam else {
                throw DiagnosticReportError.damagedJetsam("its header says bug_type \(header.bugType), not \(IPSBugType.jetsam)")
            }
            self.header = header
            bodyStart = start
        } else {
            header = nil
        }
        let raw: RawJetsam
        do {
            try JSONNesting.check(bytes[bodyStart...])
            raw = try JSONDecoder().decode(RawJetsam.self, from: Data(bytes[bodyStart...]))
        } catch {
            throw DiagnosticReportError.damagedJetsam((error as? JSONNesting.TooDeep)?.description ?? KSCrashReport.describe(error))
        }
        guard raw.processes.count <= Self.maxProcesses else {
            throw DiagnosticReportError.damagedJetsam("it lists \(raw.processes.count) processes, more than the \(Self.maxProcesses) betactl reads")
        }
        osVersion = raw.build ?? header?.osVersion
        hardwareModel = raw.product
        incident = raw.incident ?? header?.incidentID
        date = raw.date ?? header?.timestamp
        pageSize = (raw.pageSize ?? raw.memoryStatus?.pageSize).map { Int(clamping: $0) }
        if let size = pageSize, size <= 0 { throw DiagnosticReportError.damagedJetsam("its pageSize is \(size)") }
        largestProcess = raw.largestProcess
        memoryPages = (raw.memoryStatus?.memoryPages ?? [:]).mapValues { Int(clamping: $0) }
        var processes: [Process] = []
        for (index, process) in raw.processes.enumerated() {
            var uuid: UUID?
            if let text = process.uuid {
                guard let parsed = UUID(uuidString: text) else {
                    throw DiagnosticReportError.damagedJetsam("processes[\(index)].uuid \"\(text.prefix(40))\" is not a UUID")
                }
                uuid = parsed
            }
            guard (process.rpages ?? 0) >= 0 else { throw DiagnosticReportError.damagedJetsam("processes[\(index)].rpages is negative") }
            processes.append(Process(name: process.name ?? "pid \(process.pid.map(String.init) ?? "?")", pid: process.pid.map { Int(clamping: $0) },
                                     uuid: uuid, residentPages: Int(clamping: process.rpages ?? 0), reason: process.reason,
                                     states: process.states ?? [], lifetimeMaxPages: process.lifetimeMax.map { Int(clamping: $0) }))
        }
        self.processes = processes
    }

    /// The processes ordered by resident pages, largest first (report order among equals).
    public var processesBySize: [Process] {
        processes.enumerated().sorted { ($0.element.residentPages, $1.offset) > ($1.element.residentPages, $0.offset) }.map(\.element)
    }

    /// The processes that were killed (those with a reason).
    public var killedProcesses: [Process] { processes.filter { $0.reason != nil } }

    /// Bytes of `pages` pages, when the page size is known.
    public func bytes(ofPages pages: Int) -> Int? {
        pageSize.map { pages.multipliedReportingOverflow(by: $0) }.flatMap { $0.overflow ? nil : $0.partialValue }
    }
}

struct RawJetsam: Decodable {
    struct MemoryStatus: Decodable {
        var pageSize: Int64?
        var memoryPages: [String: Int64]?
    }
    struct Process: Decodable {
        var name: String?
        var pid: Int64?
        var uuid: String?
        var rpages: Int64?
        var reason: String?
        var states: [String]?
        var lifetimeMax: Int64?
    }
    var product, build, incident, date, largestProcess: String?
    var pageSize: Int64?
    var memoryStatus: MemoryStatus?
    var processes: [Process]
}
