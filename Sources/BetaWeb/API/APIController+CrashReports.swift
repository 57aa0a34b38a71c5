#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer
import BetaJSON

extension APIController {
    /// Reading crash reports and crash groups (read scope): the JSON of `betactl crashes`,
    /// `crash-groups` and `show-crash --json`, and a report's original bytes (`show-crash --raw`).
    /// Sending reports is `crashOperations`' (with an app's ingest key).
    var crashReportOperations: [APIOperation] {
        [
            APIOperation(method: .get, path: "/crash-groups", scope: .read, operationID: "listCrashGroups", tag: "Crash reports",
                         summary: "Crash groups (reports with one crash signature), the most recently seen first, as `betactl crash-groups --json` lists them.",
                         parameters: APIOperation.pagingParameters,
                         outcomes: [.init(status: 200, description: "A page of crash groups.", schema: .ref("CrashGroupList"))]) { [self] call in
                let store = crashes.store
                let groups = try await pool.run { try store.groups() }.map(CrashJSON.group)
                let page = try Page(groups.sorted { Self.pageKey($0) < Self.pageKey($1) }, request: call.request, key: Self.pageKey)
                return try Self.paged(CrashGroupListJSON(groups: page.items, nextCursor: page.nextCursor), page, call.request)
            },
            APIOperation(method: .get, path: "/crash-groups/:signature", scope: .read, operationID: "getCrashGroup", tag: "Crash reports",
                         summary: "One crash group by its signature key (`GET /crashes?group=` lists its reports).",
                         outcomes: [.init(status: 200, description: "The group.", schema: .ref("CrashGroup"))]) { [self] call in
                let key = try call.request.parameters.require("signature")
                let store = crashes.store
                return try Response.api(CrashJSON.group(try await pool.run { try store.group(key: key) }))
            },
            APIOperation(method: .get, path: "/crashes", scope: .read, operationID: "listCrashReports", tag: "Crash reports",
                         summary: "Crash reports, newest first, as `betactl crashes --json` lists them; the filters are its options.",
                         parameters: [
                             .init(name: "release", schema: .integer(minimum: 1), description: "Only reports of this release (`--release ID`)."),
                             .init(name: "group", schema: .text, description: "Only reports in this crash group, by signature key (`--group SIG`)."),
                             .init(name: "status", schema: .string(values: CrashStatus.allCases.map(\.rawValue)), description: "Only reports with this status (`--status S`)."),
                         ] + APIOperation.pagingParameters,
                         outcomes: [.init(status: 200, description: "A page of crash reports.", schema: .ref("CrashReportList"))]) { [self] call in
                let filter = try Self.crashFilter(call.request)
                let store = crashes.store
                let reports = try await pool.run { try store.reports(filter) }.map { CrashJSON.report($0) }
                let page = try Page(reports.sorted { Self.pageKey($0) < Self.pageKey($1) }, request: call.request, key: Self.pageKey)
                return try Self.paged(CrashReportListJSON(reports: page.items, nextCursor: page.nextCursor), page, call.request)
            },
            APIOperation(method: .get, path: "/crashes/:id", scope: .read, operationID: "getCrashReport", tag: "Crash reports",
                         summary: "One crash report as `betactl show-crash ID --json` prints it: its uploads and, read with the archived symbols as they are now, a crash's symbolicated threads (`symbolicated`, as `betactl symbolicate --json`) or a low-memory report's processes (`lowMemory`).",
                         outcomes: [.init(status: 200, description: "The report.", schema: .ref("CrashReport"))]) { [self] call in
                let id = try Self.crashID(call.request)
                let store = crashes.store
                return try Response.api(try await pool.run { try CrashJSON.detail(store, id: id) })
            },
            APIOperation(method: .get, path: "/crashes/:id/raw", scope: .read, operationID: "getRawCrashReport", tag: "Crash reports",
                         summary: "The report exactly as it was received (`betactl show-crash ID --raw`).",
                         outcomes: [.init(status: 200, description: "The original bytes; the ETag is their SHA-256.",
                                          schema: .string(description: "The report as the device or SDK wrote it."), mediaType: "text/plain")]) { [self] call in
                let id = try Self.crashID(call.request)
                let (sha256, bytes) = try await actions.rawCrashReport(id)
                var response = Response(status: .ok, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .bytes(bytes))
                response.headers.set("ETag", "\"\(sha256)\"")
                return response
            },
        ]
    }

    /// A page of a list, with its `Link` header.
    static func paged<T: Encodable, Item>(_ value: T, _ page: Page<Item>, _ request: Request) throws -> Response {
        var response = try Response.api(value)
        if let link = page.linkHeader(request) { response.headers.set("Link", link) }
        return response
    }

    /// The `{id}` of a crash path; a number no report has is answered as a missing report.
    static func crashID(_ request: Request) throws(APIProblem) -> Int64 {
        guard let id = try? request.parameters.require("id", as: Int64.self), id > 0 else {
            let text = request.parameters["id"] ?? ""
            throw APIProblem(.crashNotFound, CrashError.unknownReport(String(text.prefix(40))).description)
        }
        return id
    }

    /// The filter `GET /crashes` asks for with `release`, `group` and `status`, checked as `crashes` checks its options.
    static func crashFilter(_ request: Request) throws(APIProblem) -> CrashFilter {
        var filter = CrashFilter()
        if let text = request.queryValue("release") {
            guard let id = Int64(text), id > 0 else {
                throw APIProblem(.badRequest, "release=\(String(text.prefix(40))) is not a release number; `GET /releases` lists them")
            }
            filter.releaseID = id
        }
        filter.signatureKey = request.queryValue("group")
        if let text = request.queryValue("status") {
            guard let status = CrashStatus(rawValue: text) else {
                throw APIProblem(.badRequest, CrashError.unknownStatus(String(text.prefix(40))).description)
            }
            filter.status = status
        }
        return filter
    }

    /// Groups page by last seen (newest first), then signature key: the order `crash-groups` lists them in.
    static func pageKey(_ group: CrashJSON.GroupJSON) -> PageKey {
        PageKey(number: -(Timestamp.date(group.lastSeen).map { Int64($0.timeIntervalSince1970) } ?? 0), text: group.signature)
    }

    /// Reports page by first received (newest first), then number (highest first): the order `crashes` lists them in.
    static func pageKey(_ report: CrashJSON.ReportJSON) -> PageKey {
        // The text sorts as bytes: the distance of the id from Int64.max, zero-padded, orders ids downwards.
        PageKey(number: -(Timestamp.date(report.received).map { Int64($0.timeIntervalSince1970) } ?? 0),
                text: String(Int64.max - report.id).leftPadded(to: 19))
    }
}

/// `GET /api/v1/crash-groups`.
struct CrashGroupListJSON: Encodable, Sendable {
    var groups: [CrashJSON.GroupJSON]
    var nextCursor: String?
}

/// `GET /api/v1/crashes`.
struct CrashReportListJSON: Encodable, Sendable {
    var reports: [CrashJSON.ReportJSON]
    var nextCursor: String?
}
