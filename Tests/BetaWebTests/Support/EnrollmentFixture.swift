import AppleFormats
import BetaWeb
import Foundation
import Testing
import TestSupport

/// A home with two testers (Ann Lee, Bo Chen), a membership renewing on 2027-03-01 and the brand
/// "Acme Beta", served by `betactl serve` or in this process, and a device that signs its replies
/// as an iPhone does.
/// Its replies are self-signed, so by default the server takes unverified replies
/// (`--allow-unverified-enrollment`) and the approval rule approves every request, as the tests
/// of registration need; `strict` serves neither.
final class EnrollmentFixture: @unchecked Sendable {
    let directory: TemporaryDirectory
    let cli: Betactl
    let annToken: String
    let boToken: String
    let device: (certificate: String, key: String)

    /// Whether the server refuses unverified replies and requests wait for approval.
    let strict: Bool

    /// The commands run off the cooperative pool (`okAsync`), so making a fixture holds none of its threads.
    init(environment: [String: String] = [:], publicURL: String? = nil, strict: Bool = false) async throws {
        self.strict = strict
        directory = try TemporaryDirectory("enroll")
        cli = Betactl(home: directory.child("home"), extraEnvironment: environment)
        try await cli.okAsync(["init", "--team-id", "ABCDE12345", "--membership-renewal", "2027-03-01", "--brand-name", "Acme Beta"]
            + (publicURL.map { ["--public-url", $0] } ?? []))
        annToken = try await WebFixture.token(cli.okAsync(["add-tester", "Ann Lee", "--email", "ann@example.com", "--json"]))
        boToken = try await WebFixture.token(cli.okAsync(["add-tester", "Bo Chen", "--email", "bo@example.com", "--json"]))
        device = try await OpenSSLTool.makeDeviceIdentity(in: directory)
        if !strict { try await cli.okAsync(["approval-rule", "set", "--all"]) }
    }

    /// `betactl serve` on a free port, with `environment` added for this run only, waited for off
    /// the cooperative pool.
    func serve(environment: [String: String] = [:], _ arguments: [String] = []) async throws -> ServeProcess {
        var runner = cli
        for (key, value) in environment { runner.extraEnvironment[key] = value }
        return try await ServeProcess.start(runner, ["serve", "--listen", "127.0.0.1:0"] + (strict ? [] : ["--allow-unverified-enrollment"]) + arguments)
    }

    /// The web application on this fixture's home, in this process, configured as `serve` is:
    /// unverified replies taken unless `strict`; `configure` changes the settings further.
    func inProcess(trustedProxies: [String] = [], _ configure: (inout WebConfiguration) -> Void = { _ in }) throws -> InProcessServer {
        let strict = strict
        return try InProcessServer(homePath: cli.home, trustedProxies: trustedProxies) { web in
            web.enrollment.acceptsUnverified = !strict
            configure(&web)
        }
    }

    /// Downloads the enrolment profile as Safari would and returns its bytes and challenge.
    func profile(_ server: any WebEndpoint, token: String) async throws -> (response: CurlResponse, challenge: String) {
        let response = try await server.fetch("\(server.base)/t/\(token)/enroll.mobileconfig", ["-A", WebFixture.iPhone])
        #expect(response.status == 200)
        let file = try MobileConfig(bytes: Array(response.body))
        return (response, try #require(file.profile.profileService?.challenge))
    }

    /// A reply signed with `openssl cms -sign -nodetach -outform DER`, shaped like a real one.
    func reply(udid: String = "00008120-001A2B3C4D5E6F70", product: String? = "iPhone15,2", deviceName: String? = "Ann's iPhone",
               challenge: String?) async throws -> [UInt8] {
        let plist = OpenSSLTool.deviceReplyPlist(udid: udid, product: product, deviceName: deviceName, challenge: challenge)
        return try await OpenSSLTool.signDER(plist, certificate: device.certificate, key: device.key, in: directory)
    }

    /// POSTs `body` as iOS posts a reply (redirects not followed): to a `betactl serve` process with
    /// Python's urllib, to an in-process server with the same method, header fields and body.
    func post(_ server: any WebEndpoint, token: String, _ body: [UInt8]) async throws -> (status: Int, location: String) {
        let file = try directory.write("reply-\(UUID().uuidString.prefix(8)).der", body)
        let url = "\(server.base)/t/\(token)/enroll"
        guard server is ServeProcess else {
            let answer = try await server.fetch(url, ["--data-binary", "@\(file)", "-H", "Content-Type: application/pkcs7-signature",
                                                      "-A", "Profile/1.0"])
            return (answer.status, answer.headers["location"] ?? "")
        }
        let answer = try await runClient("enroll_device.py", ["post", url, file])
        return (answer["status"] as? Int ?? 0, answer["location"] as? String ?? "")
    }

    /// Posts `body` and opens the result page it is sent to; returns the page's outcome class and text.
    func outcome(_ server: any WebEndpoint, token: String, _ body: [UInt8],
                 sourceLocation: SourceLocation = #_sourceLocation) async throws -> (outcome: String, page: String) {
        let (status, location) = try await post(server, token: token, body)
        #expect(status == 301, "every reply is answered 301", sourceLocation: sourceLocation)
        #expect(location.hasPrefix("\(server.base)/t/\(token)/enroll/done/"), "\(location)", sourceLocation: sourceLocation)
        #expect(!location.uppercased().contains("00008120"), "the UDID never appears in a URL", sourceLocation: sourceLocation)
        let page = try await server.fetch(location, ["-A", WebFixture.iPhone])
        #expect(page.status == 200, sourceLocation: sourceLocation)
        let outcome = page.text.components(separatedBy: "outcome-").dropFirst().first?.prefix { $0 != "\"" && $0 != " " } ?? ""
        return (String(outcome), page.text)
    }

    /// The devices as `devices --json` lists them.
    func devices() throws -> [[String: Any]] {
        let json = try JSONSerialization.jsonObject(with: Data(try cli.ok(["devices", "--json"]).utf8)) as? [String: Any]
        return json?["devices"] as? [[String: Any]] ?? []
    }
}
