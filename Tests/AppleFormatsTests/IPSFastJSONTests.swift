import Foundation
import Testing
@testable import AppleFormats
import TestSupport

/// `.ips` bodies are read with `JSONParser` instead of JSONDecoder; these check that what they
/// give is what the `Codable` models (the definition of the leniency) give, on real and damaged bodies.
@Suite struct IPSFastJSONTests {
    static func bodies() throws -> [(String, [UInt8])] {
        var result: [(String, [UInt8])] = []
        for name in ["App-309.ips"] {
            let bytes = [UInt8](try LocalFixtures.data("symbols/crashes/\(name)"))
            let newline = try #require(bytes.firstIndex(of: 0x0A))
            result.append((name, Array(bytes[(newline + 1)...])))
        }
        if SharedFixtures.available {
            let bytes = [UInt8](try SharedFixtures.data("crash/idb/xctest-concated-json-crash.ips"))
            if let end = IPSReportHeader.firstJSONObject(in: bytes)?.end { result.append(("idb", Array(bytes[end...]))) }
        }
        return result
    }

    /// The report both readers give, or nil when the body is not a JSON object.
    static func viaDecoder(_ body: [UInt8]) -> CrashReport? {
        (try? JSONDecoder().decode(IPSBody.self, from: Data(body))).map { CrashReport(ips: $0, header: nil) }
    }

    static func viaParser(_ body: [UInt8]) -> CrashReport? {
        (try? IPSBody.read(body)).flatMap { $0 }.map { CrashReport(ips: $0, header: nil) }
    }

    @Test func realBodiesReadTheSameAsWithJSONDecoder() throws {
        for (name, body) in try Self.bodies() {
            let expected = try #require(Self.viaDecoder(body), "\(name)")
            #expect(Self.viaParser(body) == expected, "\(name)")
            #expect(!expected.threads.isEmpty)
        }
    }

    /// Damaged bodies: the two readers agree on whether it is JSON at all and on what it says.
    @Test func damagedBodiesReadTheSameAsWithJSONDecoder() throws {
        for (name, body) in try Self.bodies() {
            for (label, bytes) in damagedVariants(of: body, count: 150) {
                #expect(Self.viaParser(bytes) == Self.viaDecoder(bytes), "\(name) \(label)")
            }
        }
    }

    /// Members of the wrong type read as absent, exactly as the lenient Codable models say.
    @Test func wrongTypesReadAsAbsentLikeTheCodableModels() throws {
        let body = #"""
        {"pid": "12", "procName": 5, "faultingThread": 1.0, "bug_type": 309, "translated": 1,
         "osVersion": {"train": 17, "build": "X"}, "exception": {"type": "EXC", "signal": null},
         "bundleInfo": {"CFBundleVersion": 42, "CFBundleIdentifier": 7}, "termination": {"code": "11"},
         "asi": {"a": ["x", 1]},
         "threads": [1, {"triggered": "yes", "frames": [{"imageOffset": -1, "imageIndex": 0}, null, {"imageOffset": 1e3, "sourceLine": 2.5}]}],
         "usedImages": {"not": "an array"}, "lastExceptionBacktrace": "no",
         "incident": "\u00e9\ud83d\ude00\n"}
        """#
        let bytes = Array(body.utf8)
        let expected = try #require(Self.viaDecoder(bytes))
        #expect(Self.viaParser(bytes) == expected)
        #expect(expected.threads.count == 1 && expected.threads[0].frames.count == 2)
        #expect(expected.incidentIdentifier == "é😀\n")
    }

    @Test func malformedJSONIsRefusedWithTheOffset() {
        for (text, offset) in [("{\"a\": }", 6), ("[1, 2", 5), ("{\"a\": tru}", 6), ("{\"a\" 1}", 5), ("[1,,]", 3), ("[,]", 1), ("{,}", 1),
                               ("{\"a\":1,,}", 7), ("{\"a\":\"\\u0\"}", 6), ("[\"\\u12\",\"b\"]", 2)] {
            #expect(throws: JSONParseError.self, "\(text)") { try JSONParser.parse(Array(text.utf8)) }
            do { _ = try JSONParser.parse(Array(text.utf8)) } catch { #expect(error.offset == offset, "\(text): \(error)") }
        }
        // A damaged string or a number with leading zeros is a value that reads as nothing, not a broken document (as with JSONDecoder).
        for text in ["\"\\ud800\"", "\"a\u{01}b\"", "\"\\q\"", "\"\\u12G4\"", "08252", "-01.5", "43727-5760", "1.", "1e", "1e999", "--1"] {
            #expect((try? JSONParser.parse(Array(text.utf8))) == .unreadable, "\(text)")
        }
        // A trailing comma before } or ], which JSONDecoder takes (and RFC 8259 does not).
        #expect((try? JSONParser.parse(Array("[1, [2,], {\"a\": 3, } , ]".utf8))) == .array([.integer(1), .array([.integer(2)]), .object(JSONObject(keys: ["a"], values: [.integer(3)]))]))
        let deep = Array(String(repeating: "[", count: 600).utf8) + Array(String(repeating: "]", count: 600).utf8)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
        let numbers = try? JSONParser.parse(Array("[-9223372036854775808, 18446744073709551615, 1.5e2, \"\\/\"]".utf8))
        #expect(numbers == .array([.integer(Int64.min), .unsigned(UInt64.max), .double(150), .string("/")]))
    }
}
