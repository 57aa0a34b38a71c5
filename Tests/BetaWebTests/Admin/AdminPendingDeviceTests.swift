import AppleFormats
import Foundation
import Testing
import TestSupport

/// A device a tester registers from the device itself (issue 11's enrolment, done for real through
/// `/t/<token>/enroll`) is pending registration with Apple: the API lists it as the CLI's
/// `devices --pending --json` does, exports it as `export-devices --pending` writes it, and the
/// dashboard shows it on the overview (with the upload file), the device list, the tester's page
/// and the profile's roster diff.
@Suite(.enabled(if: OpenSSLTool.available, "needs openssl (.ci/install-deps --test)"))
struct AdminPendingDeviceTests {
    /// Not in the ad hoc profile `AdminFixture` imports.
    static let udid = "00008120-001A2B3C4D5E6F70"

    /// Enrols a device for the tester with page `token` as an iPhone does: downloads the profile,
    /// signs a reply carrying its challenge with openssl and posts it.
    static func enroll(_ server: any WebEndpoint, token: String, udid: String, name: String) async throws {
        let directory = try TemporaryDirectory("enrol")
        let identity = try await OpenSSLTool.makeDeviceIdentity(in: directory)
        let profile = try await server.fetch("\(server.base)/t/\(token)/enroll.mobileconfig", ["-A", WebFixture.iPhone])
        #expect(profile.status == 200)
        let challenge = try #require(try MobileConfig(bytes: Array(profile.body)).profile.profileService?.challenge)
        let plist = OpenSSLTool.deviceReplyPlist(udid: udid, product: "iPhone15,2", deviceName: name, challenge: challenge)
        let reply = try directory.write("reply.der", try await OpenSSLTool.signDER(plist, certificate: identity.certificate,
                                                                                   key: identity.key, in: directory))
        let answer = try await server.fetch("\(server.base)/t/\(token)/enroll",
                                            ["-H", "Content-Type: application/pkcs7-signature", "-A", "Profile/1.0", "--data-binary", "@\(reply)"])
        #expect(answer.status == 301)
        withExtendedLifetime(directory) {}
    }

    /// The part of `html` from the element with `id` to the end of its section.
    static func section(_ html: String, _ id: String) throws -> String {
        let start = try #require(html.range(of: "id=\"\(id)\""), "no #\(id)")
        let end = html.range(of: "</section>", range: start.upperBound ..< html.endIndex)?.lowerBound ?? html.endIndex
        return String(html[start.lowerBound ..< end])
    }

    /// A device's JSON without the API's `inProfile`, the one field the CLI does not print.
    static func withoutInProfile(_ device: [String: Any]) -> NSDictionary {
        var device = device
        device["inProfile"] = nil
        return device as NSDictionary
    }

    @Test func aDeviceRegisteredFromThePhoneIsPendingInTheAPIAndTheDashboardAsTheCLISays() async throws {
        let fixture = try await AdminFixture.make()
        // The replies are self-signed, and the rule approves them at once: this test is about what a registered device looks like.
        try fixture.cli.ok("approval-rule", "set", "--all")
        let server = try fixture.inProcess { $0.enrollment.acceptsUnverified = true }
        defer { server.stop() }
        let browser = try DashboardClient(server)
        try await browser.logIn(fixture.read)

        let empty = try Self.section(try await browser.get("/admin").text, "pending")
        #expect(empty.contains("None: every device testers registered themselves is in an ad hoc profile."))
        #expect(!empty.contains("devices=pending"), "no download while nothing is pending")
        let none = try await api(server, "GET", "/devices/pending", token: fixture.read).object()
        #expect((none["devices"] as? [Any])?.isEmpty == true)
        #expect(try await api(server, "GET", "/devices/export?devices=pending", token: fixture.read).text == "Device ID\tDevice Name\tDevice Platform\n")

        try await Self.enroll(server, token: fixture.web.boToken, udid: Self.udid, name: "Bo's <b>phone</b>")

        // The API's pending list is the CLI's, plus each device's inProfile.
        let cli = try #require(try cliJSON(fixture.cli, "devices", "--pending", "--json") as? [String: Any])
        let cliDevices = try #require(cli["devices"] as? [[String: Any]])
        #expect(cliDevices.map { $0["udid"] as? String } == [Self.udid])
        let pending = try await api(server, "GET", "/devices/pending", token: fixture.read).object()
        let apiDevices = try #require(pending["devices"] as? [[String: Any]])
        #expect(apiDevices.map(Self.withoutInProfile) == cliDevices.map { $0 as NSDictionary })
        #expect(apiDevices.first?["pending"] as? Bool == true && apiDevices.first?["inProfile"] as? Bool == false)
        #expect((pending["usage"] as? NSDictionary) == (cli["usage"] as? NSDictionary))
        #expect((pending["membershipYear"] as? NSDictionary) == (cli["membershipYear"] as? NSDictionary))
        #expect(((pending["usage"] as? [String: Any])?["iphone"] as? [String: Any])?["used"] as? Int == 3, "the enrolled iPhone takes a slot")

        // Every list marks it, and only it, as the CLI does.
        let everyCLI = try #require((try cliJSON(fixture.cli, "devices", "--json") as? [String: Any])?["devices"] as? [[String: Any]])
        let everyAPI = try #require(try await api(server, "GET", "/devices", token: fixture.read).object()["devices"] as? [[String: Any]])
        func flags(_ devices: [[String: Any]]) -> [String: Bool] {
            Dictionary(uniqueKeysWithValues: devices.map { ($0["udid"] as? String ?? "", $0["pending"] as? Bool ?? false) })
        }
        #expect(flags(everyAPI) == flags(everyCLI) && flags(everyAPI).filter(\.value).keys.sorted() == [Self.udid])
        let single = try await api(server, "GET", "/devices/\(Self.udid)", token: fixture.read).object()
        #expect(single["pending"] as? Bool == true && single["tester"] as? String == "Bo Chen")
        let bo = try await api(server, "GET", "/testers/2", token: fixture.read).object()
        #expect((bo["devices"] as? [[String: Any]])?.first { $0["udid"] as? String == Self.udid }?["pending"] as? Bool == true)

        // Apple's upload files are `export-devices --pending`'s, from the API and the dashboard.
        let tsv = try fixture.cli.ok("export-devices", "--pending")
        #expect(tsv == "Device ID\tDevice Name\tDevice Platform\n\(Self.udid)\tBo's <b>phone</b>\tios\n")
        #expect(try await api(server, "GET", "/devices/export?devices=pending", token: fixture.read).text == tsv)
        let deviceids = try fixture.cli.ok("export-devices", "--pending", "--format", "deviceids")
        #expect(try await api(server, "GET", "/devices/export?devices=pending&format=deviceids", token: fixture.read).text == deviceids)
        try await api(server, "GET", "/devices/export?devices=everything", token: fixture.read).problem(400, "bad-request")

        // The overview lists it with its tester, model name and registration day, escaped, and links the file.
        let overview = try await browser.get("/admin").text
        let section = try Self.section(overview, "pending")
        #expect(section.contains("1 device registered from the tester"))
        #expect(section.contains("Bo&#39;s &lt;b&gt;phone&lt;/b&gt;") && !overview.contains("<b>phone"))
        #expect(section.contains("<a href=\"/admin/testers/2\">Bo Chen</a>") && section.contains("iPhone 14 Pro"))
        #expect(section.contains(Self.udid) && section.contains(cliDevices.first.flatMap { ($0["added"] as? String)?.prefix(10) }.map(String.init) ?? "?"))
        #expect(section.contains("href=\"/admin/devices/export?devices=pending&amp;format=tsv\""))
        #expect(try await browser.get("/admin/devices/export?devices=pending&format=tsv").text == tsv)
        #expect(try await browser.get("/admin/devices/export?devices=pending&format=deviceids").text == deviceids)
        // The other list keeps the devices the profile lacks that are not pending: Bo's hand-added iPhone.
        let others = try Self.section(overview, "waiting")
        #expect(others.contains("00008110-0000000000000D04") && !others.contains(Self.udid))

        // The device list, Bo's page and the profile's diff flag it; nothing else is flagged.
        let flag = "pending: register with Apple"
        let devices = try await browser.get("/admin/devices").text
        #expect(devices.components(separatedBy: flag).count - 1 == 1)
        let row = try #require(devices.components(separatedBy: "<tr").first { $0.contains(Self.udid) })
        #expect(row.contains(flag) && !row.contains("not in profile"), "one flag says it: pending devices are in no profile")
        #expect(try #require(devices.components(separatedBy: "<tr").first { $0.contains("00008110-0000000000000D04") }).contains("not in profile"))
        #expect(devices.contains("href=\"/admin/devices/export?devices=pending&amp;format=tsv\""))
        let boPage = try await browser.get("/admin/testers/2").text
        #expect(try #require(boPage.components(separatedBy: "<tr").first { $0.contains(Self.udid) }).contains(flag))
        #expect(!(try await browser.get("/admin/testers/1").text.contains(flag)))
        let profile = try #require((try cliJSON(fixture.cli, "profiles", "--json") as? [[String: Any]])?.first?["uuid"] as? String)
        let diff = try Self.section(try await browser.get("/admin/profiles/\(profile)").text, "roster-diff")
        #expect(try #require(diff.components(separatedBy: "<li>").dropFirst().first { $0.contains(Self.udid) }).contains(flag))
        #expect(diff.contains("export-devices --pending"), "the CLI's finding about pending devices is shown")
        #expect(diff.contains("href=\"/admin/devices/export?devices=pending&amp;format=tsv\""))
    }
}
