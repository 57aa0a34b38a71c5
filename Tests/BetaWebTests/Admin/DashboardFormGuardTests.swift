import Foundation
import Testing
import TestSupport
@testable import BetaKit
@testable import BetaServer
@testable import BetaWeb

/// Every state-changing dashboard route the server registers, found in its router (so a page added
/// later is covered without editing this test): posted without the session's CSRF token it is
/// refused with 403, posted by a read-scope session with the right token too, and neither changes
/// anything.
@Suite struct DashboardFormGuardTests {
    /// The multipart parts each upload route takes, chosen so that a post that got through would
    /// change something (a new build, a new profile, new symbols). Other routes get a plain form.
    static let uploads: [String: [String]] = [
        "/admin/releases": ["-F", "ipa=@\(WebFixture.app("Beta.ipa"))", "-F", "again=true", "-F", "notes=forged"],
        "/admin/profiles": ["-F", "profile=@\(LocalFixtures.url("formats/profiles/beta_development.mobileprovision").path)"],
        "/admin/symbols": ["-F", "dsym=@\(WebFixture.app("Beta-rebuilt.app.dSYM.zip"))"],
    ]

    /// Fields that would make any of the plain forms act (add, regroup, remove, revoke).
    static let fields: [(String, String)] = [("name", "Mallory"), ("email", "m@example.com"), ("groups", "forged"), ("confirm", "yes"),
                                             ("tester", "1"), ("udid", "00008120-0000000000000F06"), ("model", "iPad14,3")]

    static func concrete(_ pattern: String) -> String {
        pattern.replacingOccurrences(of: ":id", with: "1").replacingOccurrences(of: ":udid", with: "00008030-0000000000000A01")
    }

    /// What the CLI says of everything the dashboard can change.
    static func state(_ cli: Betactl) throws -> [String] {
        try [["testers", "--json"], ["devices", "--json"], ["releases", "--json"], ["profiles", "--json"], ["symbols", "--json"]]
            .map { try cli.ok($0) }
    }

    @Test func everyDashboardPostNeedsItsCSRFTokenAndAWriteSession() async throws {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let app = try BetaWebApplication(home: try Home.open(at: fixture.cli.home), configuration: WebConfiguration())
        let posts = app.router.routes.filter { $0.method == .post && $0.pattern.hasPrefix("/admin/") && $0.pattern != "/admin/login" }
            .map(\.pattern).sorted()
        app.stop()
        #expect(posts.count >= 11, "every form route is found: \(posts)")
        #expect(Set(Self.uploads.keys).isSubset(of: Set(posts)))

        let writer = try DashboardClient(server)
        try await writer.logIn(fixture.admin)
        let reader = try DashboardClient(server)
        try await reader.logIn(fixture.read)
        let readToken = try DashboardClient.csrf(try await reader.get("/admin"))
        let before = try Self.state(fixture.cli)
        for pattern in posts {
            let path = Self.concrete(pattern)
            let body = Self.uploads[pattern] ?? Self.fields.flatMap { ["--data-urlencode", "\($0.0)=\($0.1)"] }
            let missing = try await writer.get(path, body)
            #expect(missing.status == 403 && missing.text.contains("not sent from this dashboard page"),
                    "\(path) without a CSRF token: \(missing.status) \(missing.text.prefix(200))")
            let forged = try await writer.get(path, body + (Self.uploads[pattern] == nil ? ["--data-urlencode", "csrf=forged"] : ["-F", "csrf=forged"]))
            #expect(forged.status == 403, "\(path) with a wrong CSRF token: \(forged.status)")
            guard pattern != "/admin/logout" else { continue }
            let readOnly = try await reader.get(path, body + (Self.uploads[pattern] == nil ? ["--data-urlencode", "csrf=\(readToken)"]
                                                                                           : ["-F", "csrf=\(readToken)"]))
            #expect(readOnly.status == 403, "\(path) from a read session: \(readOnly.status)")
        }
        #expect(try Self.state(fixture.cli) == before, "no refused post changed anything")
        let writerStill = try await writer.get("/admin").status, readerStill = try await reader.get("/admin").status
        #expect(writerStill == 200 && readerStill == 200, "both sessions live on")
    }
}
