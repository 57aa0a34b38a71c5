import AppleFormats
import BetaKit
import BetaJSON

/// `betactl show-crash ID`: one report, symbolicated in Apple's layout, or as stored.
enum ShowCrashCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "show-crash", summary: "Show a crash report symbolicated, or the stored original.",
        arguments: [ArgumentSpec(name: "ID", help: "The report number.")],
        options: [.json, .flag("--raw", "Print the report exactly as it was received.")],
        discussion: "A crash is symbolicated with the archived symbols as they are now and printed in Apple's layout; a low-memory report shows its largest processes, their pages and why they were killed.",
        group: .crashes)

    static func run(_ invocation: Invocation) async throws {
        let args = invocation.arguments
        if args.flag("--json") && args.flag("--raw") { throw invocation.usageError("give either --json or --raw, not both") }
        let text = args.argument("ID") ?? ""
        guard let id = Int64(text) else { throw CrashError.unknownReport(text) }
        let store = CrashStore(home: try invocation.openHome())
        let record = try store.report(id: id)
        if args.flag("--raw") { return try store.rawBytes(of: id).withUnsafeBufferPointer { invocation.console.writeOutRaw($0) } }
        if args.flag("--json") { return try invocation.printJSON(CrashJSON.detail(store, id: id)) }
        invocation.print("Crash report \(record.id): \(record.status)\(record.summary.map { " — \(TerminalText.cell($0))" } ?? "")")
        invocation.print("  received      \(Timestamp.string(record.receivedAt))\(record.uploadCount > 1 ? " (\(record.uploadCount) uploads, last \(Timestamp.string(record.lastReceivedAt)))" : "")")
        if let release = record.releaseID { invocation.print("  release       \(release)") }
        if let tester = record.testerName { invocation.print("  tester        \(TerminalText.cell(tester))") }
        if let device = record.deviceUDID { invocation.print("  device        \(device)") }
        if let key = record.signatureKey { invocation.print("  group         \(key)") }
        for missing in record.missingSymbols { invocation.print("  no symbols    \(missing)") }
        if let error = record.error { invocation.print("  unreadable    \(TerminalText.cell(error))") }
        for upload in try store.uploads(of: id) where upload.description != nil {
            invocation.print("  description   \(TerminalText.cell(upload.description ?? ""))")
        }
        invocation.print("")
        if let jetsam = try store.lowMemoryReport(id: id) {
            invocation.print(lowMemoryText(jetsam))
        } else if let symbolicated = try store.symbolicatedReport(id: id) {
            symbolicated.renderTextBytes().withUnsafeBufferPointer { invocation.console.writeOutBytes($0) }
        } else if record.status == .other {
            invocation.print("Not a crash report; `betactl show-crash \(id) --raw` prints it.")
        }
    }

    /// The memory picture: page size, the largest processes with their pages, and the killed ones.
    static func lowMemoryText(_ report: JetsamReport) -> String {
        var lines: [String] = []
        if let model = report.hardwareModel { lines.append("Hardware Model:  \(model)") }
        if let os = report.osVersion { lines.append("OS Version:      \(os)") }
        if let date = report.date { lines.append("Date/Time:       \(date)") }
        if let size = report.pageSize { lines.append("Page Size:       \(size) bytes") }
        if let largest = report.largestProcess { lines.append("Largest Process: \(largest)") }
        lines.append("")
        lines.append("Largest processes (resident pages):")
        for process in report.processesBySize.prefix(10) {
            let size = report.bytes(ofPages: process.residentPages).map { " (\($0 >> 20) MB)" } ?? ""
            lines.append("  \(TerminalText.cell(process.name))  \(process.residentPages) pages\(size)\(process.reason.map { "  killed: \($0)" } ?? "")")
        }
        let killed = report.killedProcesses
        if !killed.isEmpty {
            lines.append("")
            lines.append("Killed:")
            for process in killed { lines.append("  \(TerminalText.cell(process.name))  \(TerminalText.cell(process.reason ?? ""))  \(process.residentPages) pages") }
        }
        return lines.joined(separator: "\n")
    }
}
