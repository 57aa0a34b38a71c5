import Foundation
import Testing
import TestSupport

/// A browser-like client of the dashboard made of curl calls sharing a cookie jar.
final class DashboardClient: @unchecked Sendable {
    let server: any WebEndpoint
    let jar: TemporaryDirectory
    /// Extra headers every request sends (e.g. `X-Forwarded-For` through a trusted proxy).
    var headers: [String]

    init(_ server: any WebEndpoint, headers: [String] = []) throws {
        self.server = server
        jar = try TemporaryDirectory("cookies")
        self.headers = headers
    }

    var jarFile: String { jar.child("jar") }

    func get(_ path: String, _ extra: [String] = []) async throws -> CurlResponse {
        try await server.fetch("\(server.base)\(path)", ["-b", jarFile, "-c", jarFile, "--max-time", "300"] + headers.flatMap { ["-H", $0] } + extra)
    }

    func post(_ path: String, form: [(String, String)], _ extra: [String] = []) async throws -> CurlResponse {
        try await get(path, form.flatMap { ["--data-urlencode", "\($0.0)=\($0.1)"] } + extra)
    }

    /// The hidden `csrf` field of a page.
    static func csrf(_ page: CurlResponse) throws -> String {
        let html = page.text
        let marker = "name=\"csrf\" value=\""
        let start = try #require(html.range(of: marker), "the page has no csrf field")
        return String(html[start.upperBound...].prefix { $0 != "\"" })
    }

    /// Logs in with `token`; returns the login answer.
    @discardableResult
    func logIn(_ token: String) async throws -> CurlResponse {
        let form = try await get("/admin/login")
        return try await post("/admin/login", form: [("token", token), ("csrf", try Self.csrf(form)), ("next", "/admin")])
    }

    /// Logs in with `token` and returns every `Set-Cookie` header of the answer, as sent.
    func logInHeaders(_ token: String) async throws -> [String] {
        let form = try await get("/admin/login")
        if let local = server as? InProcessServer {
            let fields = ["-b", jarFile, "-c", jarFile] + headers.flatMap { ["-H", $0] }
                + ["--data-urlencode", "token=\(token)", "--data-urlencode", "csrf=\(try Self.csrf(form))"]
            return try await local.setCookies("\(server.base)/admin/login", fields).map { "Set-Cookie: \($0)" }
        }
        let result = try await runTool("curl", ["-s", "-D", "-", "-o", "/dev/null", "-b", jarFile, "-c", jarFile]
                                       + headers.flatMap { ["-H", $0] }
                                       + ["--data-urlencode", "token=\(token)", "--data-urlencode", "csrf=\(try Self.csrf(form))",
                                          "\(server.base)/admin/login"])
        return result.text.components(separatedBy: "\r\n").filter { $0.lowercased().hasPrefix("set-cookie:") }
    }

    /// The value of cookie `name` in the jar, if set.
    func cookie(_ name: String) throws -> String? {
        let text = (try? String(contentsOfFile: jarFile, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            if fields.count >= 7, fields[5] == name { return String(fields[6]) }
        }
        return nil
    }
}
