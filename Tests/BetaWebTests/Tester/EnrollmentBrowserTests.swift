import Foundation
import Testing
import TestSupport

/// Enrolment end to end: headless Chromium as an iPhone follows the Install button's "register this
/// device" link, downloads the profile, the device's reply is posted by script, and the result and
/// tester pages are opened in the browser again.
@Suite(.serialized, .enabled(if: Browser.available && OpenSSLTool.available, "needs chromium, chromium-driver, selenium and openssl (.ci/install-deps --test)"))
struct EnrollmentBrowserTests {
    @Test func aTesterRegistersTheirIPhoneFromTheInstallButtonAndSeesItPending() async throws {
        let fixture = try await WebFixture.make()
        // The reply is self-signed and approved by the rule at once: the browser's path is under test here.
        try fixture.cli.ok("approval-rule", "set", "--all")
        let server = try await fixture.serve(["--allow-unverified-enrollment"])
        defer { server.stop() }
        let work = try TemporaryDirectory("enroll-browser")
        let device = try await OpenSSLTool.makeDeviceIdentity(in: work)
        let udid = "00008130-0000000000000E07"
        let script = Repository.root.appendingPathComponent("Tests/Clients/browser_enroll.py").path
        let result = try await runTool(PythonOracles.python, [script, "\(server.base)/t/\(fixture.boToken)", work.path, device.certificate,
                                                              device.key, udid], timeout: 240)
        #expect(result.status == 0, "browser_enroll.py failed: \(result.error)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.output) as? [String: Any])
        let enroll = "\(server.base)/t/\(fixture.boToken)/enroll"
        #expect((report["blockedLinks"] as? [String])?.first == enroll, "the disabled Install button's link leads to enrolment")
        #expect(report["enrollURL"] as? String == enroll)
        #expect(report["enrollTitle"] as? String == "Register your device")
        #expect((report["steps"] as? [String])?.count == 3)
        #expect(report["picturesLoaded"] as? Bool == true)
        #expect(report["enrollWidth"] as? Int == report["viewportWidth"] as? Int, "nothing is wider than the phone's screen")
        #expect(report["downloaded"] as? String == "enroll.mobileconfig")
        #expect(report["profileType"] as? String == "Profile Service")
        #expect(report["replyURL"] as? String == enroll)
        #expect(report["replyStatus"] as? Int == 301)
        #expect((report["location"] as? String)?.hasPrefix("\(enroll)/done/") == true)
        #expect(report["resultHeading"] as? String == "✓ Device registered")
        #expect((report["resultMessage"] as? String)?.hasPrefix("“Bo Chen iPhone 15 Pro” (iPhone 15 Pro) is now registered for Bo Chen.") == true)
        let devices = try #require(report["devices"] as? [[String: Any]])
        let registered = try #require(devices.first { $0["name"] as? String == "Bo Chen iPhone 15 Pro" })
        #expect((registered["classes"] as? String)?.contains("status-pending") == true)
        #expect((registered["status"] as? String)?.hasPrefix("Pending") == true)
        #expect((report["console"] as? [String]) == [], "no console errors (a CSP violation would be one)")
        for shot in ["enroll.png", "result.png", "tester.png"] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: work.child(shot)))
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(shot) was taken")
        }
        let listed = try fixture.cli.ok(["devices", "--pending"])
        #expect(listed.contains("\(udid)  Bo Chen iPhone 15 Pro  iPhone 15 Pro  Bo Chen"))
    }
}
