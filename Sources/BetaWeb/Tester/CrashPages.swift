#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import Mustache

/// The tester page's crash section: the form and the tester's own reports, each with what
/// became of it and the crash group it joined.
struct CrashSection: Sendable, MustacheRepresentable {
    /// One of the tester's reports.
    struct Row: Sendable {
        var id: Int64
        var title: String
        var received: String
        var status: CrashStatus
        /// The outcome in words (with the reason when the report could not be read).
        var outcome: String
        /// The crash group in words, nil for reports that are not crashes.
        var group: String?
    }

    var uploadURL: String
    var reports: [Row]

    /// The newest reports of the tester, with their groups.
    init(uploadURL: String, records: [CrashRecord], groups: [CrashGroup]) {
        self.uploadURL = uploadURL
        let byKey = Dictionary(groups.map { ($0.signatureKey, $0) }, uniquingKeysWith: { first, _ in first })
        reports = records.map { record in
            Row(id: record.id, title: Self.title(record), received: CalendarDate(record.receivedAt).description, status: record.status,
                outcome: Self.outcome(record), group: record.signatureKey.flatMap { byKey[$0] }.map(Self.groupText))
        }
    }

    /// What the tester sees a report as: the app and version, then the crash's one-line summary.
    static func title(_ record: CrashRecord) -> String {
        var app = record.processName ?? record.fileName ?? "Report \(record.id)"
        if let version = record.appVersion { app += " \(version)" }
        if let build = record.appBuild { app += " (\(build))" }
        guard let summary = record.summary else { return app }
        return "\(app): \(summary)"
    }

    /// The status in words.
    static func statusText(_ status: CrashStatus) -> String {
        switch status {
        case .queued: "received, being processed"
        case .symbolicated: "received and symbolicated"
        case .partial: "received; waiting for the build's symbols"
        case .unreadable: "received, but it could not be read"
        case .lowMemory: "low-memory report received"
        case .other: "received (not a crash report)"
        }
    }

    /// The status in words, with why a report could not be read.
    static func outcome(_ record: CrashRecord) -> String {
        guard record.status == .unreadable, let error = record.error, !error.isEmpty else { return statusText(record.status) }
        return "\(statusText(record.status)): \(error.prefix(200))"
    }

    /// "the first report of this crash" or "one of 4 reports of this crash, from 2 testers".
    static func groupText(_ group: CrashGroup) -> String {
        guard group.count > 1 else { return "the first report of this crash" }
        let testers = group.testerIDs.count > 1 ? ", from \(group.testerIDs.count) testers" : ""
        return "one of \(group.count) reports of this crash\(testers)"
    }

    var mustacheValue: MustacheValue {
        ["uploadURL": .string(uploadURL), "hasReports": .bool(!reports.isEmpty),
         "reports": .list(reports.map { row in
             ["id": .string(String(row.id)), "title": .string(row.title), "received": .string(row.received), "status": .string(row.status.rawValue),
              "statusText": .string(row.outcome), "group": row.group.map { .string($0) } ?? .null]
         })]
    }
}

/// The page answering an upload from the tester page: each file and what became of it.
struct CrashUploadPage: Sendable, MustacheRepresentable {
    /// One file's outcome.
    struct Outcome: Sendable {
        var name: String
        var text: String
        var ok: Bool
    }

    var chrome: PageChrome
    var heading: String
    var outcomes: [Outcome]
    var testerPageURL: String

    var mustacheValue: MustacheValue {
        ["page": chrome.mustacheValue, "heading": .string(heading), "testerPageURL": .string(testerPageURL),
         "outcomes": .list(outcomes.map { ["name": .string($0.name), "text": .string($0.text), "ok": .bool($0.ok)] })]
    }
}
