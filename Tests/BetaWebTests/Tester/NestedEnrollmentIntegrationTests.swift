import AppleFormats
import Foundation
import Testing
import TestSupport

/// Enrolment replies nested to the property-list limit and one level past it, posted to a debug
/// `betactl serve` (the build whose stack frames are largest): the first registers, the second is
/// refused as unreadable naming the depth, and the server keeps answering. Before the limit was
/// lowered to 64, a binary plist nested 200 deep or an XML one 400 deep killed the server.
@Suite(.serialized, .enabled(if: OpenSSLTool.available, "needs openssl (.ci/install-deps --test)"))
struct NestedEnrollmentIntegrationTests {
    static let limit = PlistValue.maximumNesting

    /// The one place these tests start a server (self-signed replies are posted).
    static func serve(_ fixture: EnrollmentFixture) async throws -> ServeProcess {
        try await fixture.serve()
    }

    /// A reply plist shaped like a real one plus a key whose value nests the whole plist `depth` deep.
    static func plist(udid: String, challenge: String, depth: Int, binary: Bool) -> [UInt8] {
        let entries = [("CHALLENGE", challenge), ("DEVICE_NAME", "Ann's iPhone"), ("PRODUCT", "iPhone15,2"), ("UDID", udid), ("VERSION", "21A329")]
        return binary ? NestedData.binaryPlist(entries, depth: depth) : NestedData.xmlPlist(entries, depth: depth)
    }

    /// `content` signed as a device signs its reply (`openssl cms -sign -nodetach -binary -outform DER`).
    static func signed(_ content: [UInt8], _ fixture: EnrollmentFixture) async throws -> [UInt8] {
        let input = try fixture.directory.write("nested-\(UUID().uuidString.prefix(8)).plist", content)
        return Array(try await OpenSSLTool.run(["cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-in", input,
                                                "-signer", fixture.device.certificate, "-inkey", fixture.device.key]))
    }

    @Test(arguments: ["xml", "binary"])
    func aReplyNestedToTheLimitRegistersAndOneLevelMoreIsRefusedWhileTheServerStaysUp(_ format: String) async throws {
        let fixture = try await EnrollmentFixture()
        let server = try await Self.serve(fixture)
        defer { server.stop() }
        let binary = format == "binary"

        let (_, first) = try await fixture.profile(server, token: fixture.annToken)
        let atLimit = try await Self.signed(Self.plist(udid: EnrollmentIntegrationTests.udid, challenge: first, depth: Self.limit, binary: binary), fixture)
        let registered = try await fixture.outcome(server, token: fixture.annToken, atLimit)
        #expect(registered.outcome == "registered", "\(registered.page)")
        #expect(try fixture.devices().map { $0["udid"] as? String } == [EnrollmentIntegrationTests.udid])

        // One level more, and the depths that crashed the debug server before.
        for depth in [Self.limit + 1, binary ? 200 : 400, 1000] {
            let (_, challenge) = try await fixture.profile(server, token: fixture.annToken)
            let reply = try await Self.signed(Self.plist(udid: "00008120-0000000000000077", challenge: challenge, depth: depth, binary: binary), fixture)
            let refused = try await fixture.outcome(server, token: fixture.annToken, reply)
            #expect(refused.outcome == "unreadable", "depth \(depth)")
            #expect(refused.page.contains("nest \(Self.limit + 1) levels deep, more than the \(Self.limit) allowed"), "depth \(depth): \(refused.page)")
        }
        #expect(try fixture.devices().count == 1, "nothing was added for the refused replies")
        #expect(server.process.isRunning)
        #expect(try await curl("\(server.base)/t/\(fixture.annToken)", ["-A", WebFixture.iPhone]).status == 200)
    }
}
