import BetaKit
import BetaJSON

/// `betactl add-crash FILE...`: stores crash reports that arrived another way (mail, say) and
/// processes them at once.
enum AddCrashCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "add-crash", summary: "Add crash reports that arrived another way (by mail, say).",
        arguments: [ArgumentSpec(name: "FILE", help: "An .ips, .crash or .txt report, a KSCrash JSON report, or a JetsamEvent.", isRepeated: true)],
        options: [.value("--tester", "T", "The tester who sent them (id, email or name)."),
                  .value("--description", "TEXT", "What the sender wrote about them."),
                  .json],
        discussion: "Reports are stored like uploads (the same bytes are stored once), then symbolicated with the archived symbols, linked and grouped before the command returns. A file that is not a report is refused and nothing is stored.",
        group: .crashes)

    static func run(_ invocation: Invocation) async throws {
        let args = invocation.arguments
        let files = args.arguments("FILE")
        guard !files.isEmpty else { throw invocation.usageError("give at least one report file") }
        let home = try invocation.openHome()
        let testerID = try args.value("--tester").map { try Roster(home: home).tester(matching: $0).id }
        var submissions: [CrashSubmission] = []
        for file in files {
            let bytes = try FileIO.readFile(file, limit: Int(CrashStore.defaultMaxReportBytes) + 1)
            let name = file.split(separator: "/").last.map(String.init) ?? file
            guard Int64(bytes.count) <= CrashStore.defaultMaxReportBytes else {
                throw CrashError.tooLarge(size: Int64(bytes.count), limit: CrashStore.defaultMaxReportBytes)
            }
            guard !bytes.isEmpty else { throw CrashError.empty(name: file) }
            let (accepted, evidence) = CrashStore.recognize(bytes)
            guard accepted else { throw CrashError.notAReport(name: file, evidence: evidence) }
            submissions.append(CrashSubmission(bytes: bytes, source: .cli, fileName: name, testerID: testerID, description: args.value("--description")))
        }
        let store = CrashStore(home: home)
        let receipts = try store.store(submissions, now: invocation.now)
        let processor = try CrashProcessor(store: store)
        let now = invocation.now
        let ids = Set(receipts.map(\.reportID))
        while try processor.processNext(limit: 32, now: now, only: ids) > 0 {}
        let records = try receipts.map { try store.report(id: $0.reportID) }
        if args.flag("--json") { return try invocation.printJSON(records.map { CrashJSON.report($0) }) }
        for (receipt, record) in zip(receipts, records) {
            let what = receipt.duplicate ? "already stored as" : "added"
            invocation.print("\(what) report \(record.id): \(record.status)\(record.summary.map { " — \($0)" } ?? "")")
            for missing in record.missingSymbols { invocation.print("  missing symbols \(missing)") }
            if let error = record.error { invocation.print("  \(error)") }
        }
    }
}
