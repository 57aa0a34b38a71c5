import AppleFormats
import BetaKit

extension CrashJSON {
    /// One process of a low-memory report.
    public struct MemoryProcessJSON: Encodable, Sendable, Equatable {
        /// The process name.
        public var name: String
        /// Its process id, when given.
        public var pid: Int?
        /// Its resident pages (`rpages`).
        public var residentPages: Int
        /// Those pages in bytes, when the page size is known.
        public var bytes: Int?
        /// Why it was killed (`per-process-limit`, `vm-pageshortage`, …); absent for processes left running.
        public var reason: String?
        /// States such as `frontmost` or `suspended`.
        public var states: [String]
    }

    /// A low-memory (JetsamEvent) report's memory picture.
    public struct LowMemoryJSON: Encodable, Sendable, Equatable {
        /// Bytes per memory page.
        public var pageSize: Int?
        /// The process using the most memory, as the report names it.
        public var largestProcess: String?
        /// The device's pages by state (free, active, wired, …).
        public var memoryPages: [String: Int]
        /// Every process listed, largest first.
        public var processes: [MemoryProcessJSON]
    }

    /// Report `id` as `betactl show-crash ID --json` prints it and `GET /api/v1/crashes/{id}`
    /// answers: the report with every upload, and what it holds read with the archive's symbols as
    /// they are now: a crash symbolicated (`symbolicated`, the shape `betactl symbolicate --json`
    /// prints), a low-memory report's processes (`lowMemory`). Other and unreadable reports have
    /// neither. Throws `CrashError.unknownReport` for a number no report has.
    public static func detail(_ store: CrashStore, id: Int64) throws -> ReportJSON {
        let record = try store.report(id: id)
        var json = report(record, uploads: try store.uploads(of: id))
        // As the text of `show-crash` does: whatever the status says (a report still queued is read
        // now), a low-memory report shows its processes and a crash its frames.
        if let jetsam = try store.lowMemoryReport(id: id) {
            json.lowMemory = lowMemory(jetsam)
        } else if let symbolicated = try store.symbolicatedReport(id: id) {
            json.symbolicated = SymbolicatedReport.JSONView(symbolicated)
        }
        return json
    }

    /// The JSON of a low-memory report.
    public static func lowMemory(_ report: JetsamReport) -> LowMemoryJSON {
        LowMemoryJSON(pageSize: report.pageSize, largestProcess: report.largestProcess, memoryPages: report.memoryPages,
                      processes: report.processesBySize.map { process in
                          MemoryProcessJSON(name: process.name, pid: process.pid, residentPages: process.residentPages,
                                            bytes: report.bytes(ofPages: process.residentPages), reason: process.reason, states: process.states)
                      })
    }
}
