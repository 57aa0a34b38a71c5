#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer
import Mustache

extension AdminController {
    /// Crashes: the crash groups (and the reports that are not crashes), one group's reports, one
    /// report with its symbolicated frames or its memory picture, and the report's original.
    func addCrashPages(_ admin: inout RouteGroup) {
        addAdminPage(&admin, "/crashes") { [self] call in try await crashGroupsPage(call) }
        addAdminPage(&admin, "/crashes/groups/:signature") { [self] call in try await crashGroupPage(call) }
        addAdminPage(&admin, "/crashes/:id") { [self] call in try await crashPage(call) }
        addAdminPage(&admin, "/crashes/:id/raw") { [self] call in try await rawCrashPage(call) }
    }

    /// How many reports that are not crashes the groups page lists.
    static let otherReportsShown = 50
    /// How many of its reports a group's page lists, newest first.
    static let groupReportsShown = 500

    /// `GET /admin/crashes`.
    func crashGroupsPage(_ call: AdminRequest) async throws -> Response {
        let store = crashes.store
        let home = self.home
        let limit = Self.otherReportsShown
        let (groups, others, names) = try await pool.run {
            // Reports without a signature are the ones processing gave no group: the newest of each such status.
            let others = try [CrashStatus.lowMemory, .other, .unreadable, .queued].flatMap { status in
                try store.reports(CrashFilter(status: status, limit: limit))
            }.filter { $0.signatureKey == nil }
            return (try store.groups(), Array(others.sorted(by: Self.newestFirst).prefix(limit)), try CrashPageNames(home: home))
        }
        var chrome = adminChrome("Crashes", area: "/admin/crashes", settings: call.settings, session: call.session)
        chrome.notice = Self.notice(call.request)
        return try renderAdmin("admin-crashes", chrome, [
            "groups": .list(groups.map { .object(Self.crashGroupRow($0, names: names)) }), "hasGroups": .bool(!groups.isEmpty),
            "reports": .list(others.map { Self.crashReportRow($0, names: names) }), "hasOthers": .bool(!others.isEmpty),
        ])
    }

    /// `GET /admin/crashes/groups/<signature>`: the group and its newest reports.
    func crashGroupPage(_ call: AdminRequest) async throws -> Response {
        let key = try call.request.parameters.require("signature")
        let store = crashes.store
        let home = self.home
        let found = try await pool.run { () -> (CrashGroup, [CrashRecord], CrashPageNames)? in
            guard let group = try store.groups().first(where: { $0.signatureKey == key }) else { return nil }
            return (group, try store.reports(CrashFilter(signatureKey: key, limit: Self.groupReportsShown)), try CrashPageNames(home: home))
        }
        guard let (group, reports, names) = found else { throw WebError.notFound }
        let chrome = adminChrome(group.title, area: "/admin/crashes", settings: call.settings, session: call.session)
        return try renderAdmin("admin-crash-group", chrome, [
            "group": .object(Self.crashGroupRow(group, names: names)),
            "reports": .list(reports.map { Self.crashReportRow($0, names: names) }),
            "shown": group.count > reports.count ? .int(reports.count) : .null,
        ])
    }

    /// `GET /admin/crashes/<id>`: the report, its uploads, and its frames (symbolicated with the
    /// archive as it is now) or its memory picture.
    func crashPage(_ call: AdminRequest) async throws -> Response {
        let id = try call.request.parameters.require("id", as: Int64.self)
        let store = crashes.store
        let home = self.home
        let loaded = try await pool.run { () -> CrashPageContent? in
            let record: CrashRecord
            do { record = try store.report(id: id) } catch CrashError.unknownReport { return nil }
            let jetsam = try store.lowMemoryReport(id: id)
            return CrashPageContent(record: record, uploads: try store.uploads(of: id), lowMemory: jetsam,
                                    symbolicated: jetsam == nil ? try store.symbolicatedReport(id: id) : nil,
                                    group: try record.signatureKey.flatMap { key in try store.groups().first { $0.signatureKey == key } },
                                    names: try CrashPageNames(home: home))
        }
        guard let content = loaded else { throw WebError.notFound }
        let chrome = adminChrome("Crash report \(id)", area: "/admin/crashes", settings: call.settings, session: call.session)
        return try renderAdmin("admin-crash", chrome, content.mustacheValues)
    }

    /// `GET /admin/crashes/<id>/raw`: the report exactly as received, as plain text that no browser
    /// renders as anything else (nosniff comes with every answer; the dashboard's are never stored).
    func rawCrashPage(_ call: AdminRequest) async throws -> Response {
        let id = try call.request.parameters.require("id", as: Int64.self)
        let raw: (sha256: String, bytes: [UInt8])
        do { raw = try await actions.rawCrashReport(id) } catch let error as CrashError {
            guard case .unknownReport = error else { throw error }
            throw WebError.notFound
        }
        var response = Response(status: .ok, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .bytes(raw.bytes))
        response.headers.set("X-Content-Type-Options", "nosniff")
        response.headers.set("Content-Disposition", "inline; filename=\"crash-\(id).txt\"")
        return response
    }

    /// Newest received first, then the highest number: the order `crashes` lists reports in.
    static func newestFirst(_ a: CrashRecord, _ b: CrashRecord) -> Bool {
        a.receivedAt != b.receivedAt ? a.receivedAt > b.receivedAt : a.id > b.id
    }

    /// The crash groups seen within `days` days of `now`, for the overview: each with how many
    /// reports it received in that time, the most recently seen first.
    func recentCrashGroups(days: Int, now: Date) async throws -> [MustacheValue] {
        let store = crashes.store
        let home = self.home
        let since = now.addingTimeInterval(-Double(days) * 86_400)
        let (groups, counts, names) = try await pool.run {
            (try store.groups(), try store.groupCounts(since: since), try CrashPageNames(home: home))
        }
        return groups.compactMap { group in
            guard let recent = counts[group.signatureKey] else { return nil }
            var row = Self.crashGroupRow(group, names: names)
            row["recent"] = .int(recent)
            return .object(row)
        }
    }
}

/// What the crash page shows, read on the blocking pool.
struct CrashPageContent: Sendable {
    var record: CrashRecord
    var uploads: [CrashUpload]
    var lowMemory: JetsamReport?
    var symbolicated: SymbolicatedReport?
    var group: CrashGroup?
    var names: CrashPageNames
}

/// Tester and release names by number, for the crash pages' links.
struct CrashPageNames: Sendable {
    /// Current testers (removed ones have no page to link to).
    var testers: [Int64: String]
    var releases: [Int64: String]

    init(home: Home) throws {
        testers = Dictionary(try Roster(home: home).testers().map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        releases = Dictionary(try Archive(home: home).releases().map { release in
            (release.id, "\(release.displayName ?? release.bundleID) \(ReleaseCard.versionLabel(release))")
        }, uniquingKeysWith: { first, _ in first })
    }

    /// A tester for the templates: number, name, and whether they still exist (and have a page).
    func testerValue(_ id: Int64) -> MustacheValue {
        ["id": .string(String(id)), "name": .string(testers[id] ?? "Tester \(id) (removed)"), "current": .bool(testers[id] != nil)]
    }

    func release(_ id: Int64) -> String { releases[id] ?? "Release \(id)" }
}
