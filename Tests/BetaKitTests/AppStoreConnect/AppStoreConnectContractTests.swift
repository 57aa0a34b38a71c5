import Foundation
import Testing
import TestSupport
@testable import BetaKit

/// The test server is only worth its contract checks if they really fail: requests that break
/// Apple's OpenAPI document, or tokens made wrongly, are refused and recorded.
@Suite(.enabled(if: AppStoreConnectServer.isAvailable, "needs the test App Store Connect server's venv (.ci/install-deps --test)"))
struct AppStoreConnectContractTests {
    @Test func requestsThatBreakApplesDocumentAreRefusedAndRecorded() throws {
        let server = try AppStoreConnectServer()
        #expect(try server.curl("GET", "/v1/devices?limit=500") == 400, "limit is at most 200")
        let badPlatform = #"{"data":{"type":"devices","attributes":{"name":"Ann","udid":"00008030-0000000000000A01","platform":"IPHONE"}}}"#
        #expect(try server.curl("POST", "/v1/devices", body: badPlatform) == 400, "platform is IOS, MAC_OS or UNIVERSAL")
        let missingName = #"{"data":{"type":"devices","attributes":{"udid":"00008030-0000000000000A01","platform":"IOS"}}}"#
        #expect(try server.curl("POST", "/v1/devices", body: missingName) == 400, "name is required")
        let problems = try server.problems()
        #expect(problems.count == 3)
        #expect(problems[0].contains("limit"))
        #expect(problems[1].contains("IPHONE"))
        #expect(problems[2].contains("name"))
    }

    @Test func tokensThatAreNotApplesES256AreRefusedAndRecorded() throws {
        let server = try AppStoreConnectServer()
        #expect(try server.curl("GET", "/v1/devices?limit=200", bearer: "not-a-jwt") == 401)
        // A well-formed token for the right key id whose signature is DER, not raw r‖s.
        let header = Data(#"{"alg":"ES256","kid":"ABC123DEFG","typ":"JWT"}"#.utf8).base64EncodedString()
        let now = Int(Date().timeIntervalSince1970)
        let claims = Data(#"{"iss":"57246542-96fe-1a63-e053-0824d011072a","iat":\#(now),"exp":\#(now + 600),"aud":"appstoreconnect-v1"}"#.utf8)
            .base64EncodedString()
        let forged = "\(header).\(claims).\(Data(repeating: 7, count: 70).base64EncodedString())".replacingOccurrences(of: "=", with: "")
        #expect(try server.curl("GET", "/v1/devices?limit=200", bearer: forged) == 401)
        let tooLong = Data(#"{"iss":"57246542-96fe-1a63-e053-0824d011072a","iat":\#(now),"exp":\#(now + 3600),"aud":"appstoreconnect-v1"}"#.utf8)
            .base64EncodedString().replacingOccurrences(of: "=", with: "")
        #expect(try server.curl("GET", "/v1/devices?limit=200", bearer: "\(header.replacingOccurrences(of: "=", with: "")).\(tooLong).AAAA") == 401)
        let problems = try server.problems()
        #expect(problems.count == 3)
        #expect(problems[1].contains("not the raw 64-byte r||s"))
        #expect(problems[2].contains("not within 20 minutes"))
    }

    @Test func betactlsOwnCallsBreakNothing() throws {
        let fixture = try AppleFixture(scenario: ["generate_devices": 5])
        _ = try fixture.account.sync(client: try fixture.client(), now: Date())
        #expect(try fixture.server.calls().count == 1)
        #expect(try fixture.server.problems() == [])
    }
}
