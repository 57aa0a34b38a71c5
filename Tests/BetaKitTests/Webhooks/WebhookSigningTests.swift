import AppleFormats
import Foundation
@testable import HTTPClient
import Testing
import TestSupport
@testable import BetaKit

/// HMAC-SHA256 and the Standard Webhooks signature, checked against RFC 4231 and Python's hmac;
/// the address ranges a webhook may not reach.
@Suite struct WebhookSigningTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func hmacMatchesRFC4231() {
        // Test case 2 (a short key) and test case 6 (a key longer than the block).
        #expect(Self.hex(HMACSHA256.code(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(Self.hex(HMACSHA256.code(key: [UInt8](repeating: 0xAA, count: 131),
                                         message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func signaturesMatchPythonsHmacForManyKeysAndBodies() throws {
        var generator = SystemRandomNumberGenerator()
        var lines: [String] = []
        var expected: [String] = []
        for round in 0 ..< 40 {
            let key = (0 ..< (round == 0 ? 0 : Int.random(in: 1 ... 100, using: &generator))).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            let body = (0 ..< Int.random(in: 0 ... 300, using: &generator)).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            let id = "msg_\(round)"
            let stamp = Int64(1_700_000_000 + round)
            lines.append([WebhookSignature.secret(key: key), id, String(stamp), Data(body).base64EncodedString()].joined(separator: " "))
            expected.append(WebhookSignature.signature(key: key, messageID: id, timestamp: stamp, body: body))
        }
        let script = """
            import base64, hashlib, hmac, sys
            for line in sys.stdin.read().splitlines():
                secret, msg, stamp, body = (line.split(" ") + [""])[:4]
                key = base64.b64decode(secret[len("whsec_"):])
                signed = f"{msg}.{stamp}.".encode() + base64.b64decode(body)
                print("v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode())
            """
        let result = try runToolNow("python3", ["-c", script], input: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(result.status == 0, "\(result.error)")
        #expect(result.text.split(separator: "\n").map(String.init) == expected)
    }

    @Test func addressRangesAreToldApart() {
        let cases: [(String, NetworkAddress.Range)] = [
            ("127.0.0.1", .loopback), ("127.255.0.9", .loopback), ("::1", .loopback), ("::ffff:127.0.0.1", .loopback),
            ("169.254.169.254", .linkLocal), ("fe80::1", .linkLocal), ("10.0.0.1", .private), ("172.16.0.1", .private),
            ("172.31.255.255", .private), ("192.168.1.1", .private), ("100.64.0.1", .private), ("fd00:ec2::254", .private),
            ("0.0.0.0", .reserved), ("::", .reserved), ("224.0.0.1", .reserved), ("255.255.255.255", .reserved), ("ff02::1", .reserved),
            ("64:ff9b::a9fe:a9fe", .linkLocal), ("2002:7f00:1::", .loopback), ("::ffff:10.0.0.1", .private),
            ("93.184.216.34", .global), ("172.32.0.1", .global), ("2606:4700:4700::1111", .global), ("100.128.0.1", .global),
        ]
        for (text, range) in cases {
            #expect(NetworkAddress(text)?.range == range, "\(text)")
        }
        #expect(NetworkAddress("example.com") == nil && NetworkAddress("1.2.3") == nil && NetworkAddress("") == nil)
        #expect(NetworkAddress.hostName(of: "https://[::1]:8443/x") == "::1")
        #expect(NetworkAddress.hostName(of: "http://hooks.example.com:8080/x?y") == "hooks.example.com")
        #expect(NetworkAddress.hostName(of: "http://a:b@example.com/") == nil)
    }

    @Test func aPinnedAddressEntryNamesHostPortAndAddress() {
        #expect(HTTPClient.resolveEntry(url: "https://hooks.example.com/x", address: "93.184.216.34") == "hooks.example.com:443:93.184.216.34")
        #expect(HTTPClient.resolveEntry(url: "http://hooks.example.com:8080/x", address: "2606:4700::1") == "hooks.example.com:8080:[2606:4700::1]")
        #expect(HTTPClient.resolveEntry(url: "http://[::1]:9/x", address: "::1") == "[::1]:9:[::1]")
        #expect(HTTPClient.resolveEntry(url: "http://example.com/", address: "1.2.3.4\nX") == nil)
    }
}
