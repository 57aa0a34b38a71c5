import BetaKit
import BetaJSON

/// `betactl crashes`: crash reports, newest first.
enum CrashesCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "crashes", summary: "List crash reports, newest first.",
        options: [.value("--release", "ID", "Only reports of this release."),
                  .value("--group", "SIG", "Only reports in this group (signature key)."),
                  .value("--status", "S", "Only reports with this status: queued, symbolicated, partial, unreadable, low-memory or other."),
                  .json],
        group: .crashes)

    static func run(_ invocation: Invocation) async throws {
        let args = invocation.arguments
        var filter = CrashFilter()
        if let text = args.value("--release") {
            guard let id = Int64(text) else { throw invocation.usageError("--release needs a release number, got \(text)") }
            filter.releaseID = id
        }
        filter.signatureKey = args.value("--group")
        if let text = args.value("--status") {
            guard let status = CrashStatus(rawValue: text) else { throw CrashError.unknownStatus(text) }
            filter.status = status
        }
        let store = CrashStore(home: try invocation.openHome())
        let records = try store.reports(filter)
        if args.flag("--json") {
            try invocation.printJSON(["reports": records.map { CrashJSON.report($0) }])
            return
        }
        guard !records.isEmpty else {
            invocation.print("No crash reports\(filter == CrashFilter() ? "" : " match") yet. Testers send them from their page; `betactl add-crash FILE` adds one.")
            return
        }
        var table = Table(headers: ["ID", "RECEIVED", "STATUS", "APP", "RELEASE", "TESTER", "SUMMARY"])
        for record in records {
            let app = [record.processName, record.appVersion].compactMap { $0 }.joined(separator: " ")
            table.rows.append([String(record.id), Timestamp.string(record.receivedAt), record.status.rawValue, app.isEmpty ? "-" : app,
                               record.releaseID.map(String.init) ?? "-", record.testerName ?? "-",
                               String((record.summary ?? record.error ?? "").prefix(80))])
        }
        invocation.console.writeOut(table.render(style: invocation.style))
        let queued = try store.queuedCount()
        if queued > 0 { invocation.print("\(queued) report\(queued == 1 ? "" : "s") waiting to be processed (the server processes them; `betactl add-crash` too).") }
    }
}

/// `betactl crash-groups`: reports grouped by crash signature.
enum CrashGroupsCommand: BetactlCommand {
    static let spec = CommandSpec(name: "crash-groups", summary: "List crash groups (reports with one crash signature).", options: [.json], group: .crashes)

    static func run(_ invocation: Invocation) async throws {
        let groups = try CrashStore(home: try invocation.openHome()).groups()
        if invocation.arguments.flag("--json") {
            try invocation.printJSON(["groups": groups.map(CrashJSON.group)])
            return
        }
        guard !groups.isEmpty else {
            invocation.print("No crash groups yet.")
            return
        }
        var table = Table(headers: ["SIGNATURE", "COUNT", "FIRST SEEN", "LAST SEEN", "RELEASES", "TESTERS", "REPORT", "CRASH"])
        for group in groups {
            table.rows.append([group.signatureKey, String(group.count), CalendarDate(group.firstSeenAt).description, CalendarDate(group.lastSeenAt).description,
                               group.releaseIDs.isEmpty ? "-" : group.releaseIDs.map(String.init).joined(separator: ","),
                               String(group.testerIDs.count), String(group.representativeID), String(group.title.prefix(100))])
        }
        invocation.console.writeOut(table.render(style: invocation.style))
    }
}
