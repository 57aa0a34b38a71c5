#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import Mustache

/// The tester page's crash section: the upload form and the tester's own reports.
struct CrashSection: Sendable, MustacheRepresentable {
    /// One of the tester's reports.
    struct Row: Sendable {
        var title: String
        var received: String
        var status: CrashStatus
        var groupCount: Int?
    }

    var uploadURL: String
    var reports: [Row]

    /// The newest `limit` reports of the tester, with the size of their groups.
    init(uploadURL: String, records: [CrashRecord], groups: [CrashGroup]) {
        self.uploadURL = uploadURL
        let counts = Dictionary(groups.map { ($0.signatureKey, $0.count) }, uniquingKeysWith: { first, _ in first })
        reports = records.map { record in
            Row(title: Self.title(record), received: CalendarDate(record.receivedAt).description, status: record.status,
                groupCount: record.signatureKey.flatMap { counts[$0] }.flatMap { $0 > 1 ? $0 : nil })
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

    var mustacheValue: MustacheValue {
        ["uploadURL": .string(uploadURL), "hasReports": .bool(!reports.isEmpty),
         "reports": .list(reports.map { row in
             ["title": .string(row.title), "received": .string(row.received), "status": .string(row.status.rawValue),
              "statusText": .string(Self.statusText(row.status)), "groupCount": row.groupCount.map { .string(String($0)) } ?? .null]
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
