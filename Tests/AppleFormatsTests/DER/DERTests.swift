import Foundation
import Testing
@testable import AppleFormats

@Suite struct DERTests {
    @Test func parsesIndefiniteLengthsAndJoinsConstructedOctetStrings() throws {
        // SEQUENCE (indefinite) { OCTET STRING (constructed, indefinite) { "ab", "cd" }, INTEGER 5 }
        let bytes: [UInt8] = [0x30, 0x80, 0x24, 0x80, 0x04, 0x02, 0x61, 0x62, 0x04, 0x02, 0x63, 0x64, 0x00, 0x00, 0x02, 0x01, 0x05, 0x00, 0x00]
        let element = try ASN1Element(parsing: bytes)
        #expect(element.isIndefiniteLength)
        #expect(element.children.count == 2)
        #expect(try element.children[0].octetString() == Array("abcd".utf8))
        #expect(try element.children[1].integer() == 5)
        #expect(element.encoded.count == bytes.count)
    }

    @Test func decodesScalarValues() throws {
        #expect(try ASN1Element(parsing: [0x02, 0x02, 0xff, 0x7f]).integer() == -129)
        #expect(try ASN1Element(parsing: [0x02, 0x01, 0x80]).integer() == -128)
        #expect(try ASN1Element(parsing: [0x01, 0x01, 0xff]).boolean())
        #expect(try ASN1Element(parsing: [0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02]).objectIdentifier() == "1.2.840.113549.1.7.2")
        #expect(try ASN1Element(parsing: [0x1e, 0x04, 0x00, 0x68, 0x00, 0xe9]).string() == "hé")
        let utc = try ASN1Element(parsing: [0x17, 0x0d] + Array("491231235959Z".utf8)).time()
        #expect(utc == ISO8601DateFormatter().date(from: "2049-12-31T23:59:59Z"))
        let old = try ASN1Element(parsing: [0x17, 0x0d] + Array("500101000000Z".utf8)).time()
        #expect(old == ISO8601DateFormatter().date(from: "1950-01-01T00:00:00Z"))
        let generalized = try ASN1Element(parsing: [0x18, 0x12] + Array("20240229120000.25Z".utf8)).time()
        #expect(generalized == ISO8601DateFormatter().date(from: "2024-02-29T12:00:00Z"))
    }

    @Test func refusesMalformedInputWithOffsets() {
        #expect(throws: DERError.truncated(offset: 0, claimed: 16, available: 2)) { try ASN1Element(parsing: [0x30, 0x10, 0x02, 0x00]) }
        #expect(throws: DERError.missingEndOfContents(offset: 0)) { try ASN1Element(parsing: [0x30, 0x80, 0x02, 0x01, 0x05]) }
        #expect(throws: DERError.self) { try ASN1Element(parsing: [0x04, 0x80, 0x00, 0x00]) }
        #expect(throws: DERError.self) { try ASN1Element(parsing: [0x30, 0x85, 1, 0, 0, 0, 0]) }
        #expect(throws: DERError.trailingData(offset: 2, count: 1)) { try ASN1Element(parsing: [0x05, 0x00, 0x00]) }
        let error = #expect(throws: DERError.self) { try ASN1Element(parsing: [0x30, 0x10, 0x02, 0x00]) }
        #expect(error?.description == "the element at byte 0 claims 16 bytes but only 2 remain: the file is truncated; copy or download it again")
        #expect(throws: DERError.self) { try ASN1Element(parsing: [0x17, 0x0d] + Array("491331235959Z".utf8)).time() }
        #expect(throws: DERError.self) { try ASN1Element(parsing: [0x17, 0x0b] + Array("4912312359Y".utf8)).time() }
    }

    @Test func timeErrorsNameWhatIsWrongWithTheText() {
        func message(_ text: String, tag: UInt8 = 0x17) -> String? {
            let error = #expect(throws: DERError.self) { try ASN1Element(parsing: [tag, UInt8(text.utf8.count)] + Array(text.utf8)).time() }
            return error?.description
        }
        #expect(message("4912")?.contains("time \"4912\" is too short") == true)
        #expect(message("49123a2359Z")?.contains("time \"49123a2359Z\" has a non-digit") == true)
        #expect(message("4912312359Y")?.contains("time \"4912312359Y\" is not in UTC (no trailing Z)") == true)
        #expect(message("491231235959ZZ")?.contains("is not in UTC (no trailing Z)") == true)
        #expect(message("491331235959Z")?.contains("time \"491331235959Z\" is out of range") == true)
        #expect(message("20241231246000Z", tag: 0x18)?.contains("is out of range") == true)
    }

    @Test func timesMayLeaveOutTheSeconds() throws {
        let utc = try ASN1Element(parsing: [0x17, 0x0b] + Array("4912312359Z".utf8)).time()
        #expect(utc == ISO8601DateFormatter().date(from: "2049-12-31T23:59:00Z"))
        let generalized = try ASN1Element(parsing: [0x18, 0x0d] + Array("202402291200Z".utf8)).time()
        #expect(generalized == ISO8601DateFormatter().date(from: "2024-02-29T12:00:00Z"))
    }

    @Test func boundsNestingDepthAndElementCount() {
        var deep: [UInt8] = []
        for _ in 0 ..< 200 { deep += [0x30, 0x80] }
        #expect(throws: DERError.tooDeep(offset: 96, limit: 48)) { try ASN1Element(parsing: deep) }
        var many: [UInt8] = [0x30, 0x82, 0x07, 0xd0]
        for _ in 0 ..< 1000 { many += [0x05, 0x00] }
        #expect(throws: DERError.tooManyElements(limit: 100)) {
            try ASN1Element(parsing: many, limits: .init(maxDepth: 4, maxElements: 100))
        }
    }

    @Test func decodesAppleDERPlistDictionariesArraysAndWrapper() throws {
        // [APPLICATION 16] { INTEGER 1, [16] { SEQ { "a", TRUE }, SEQ { "b", SEQ { "x", "y" } } } }
        func utf8(_ text: String) -> [UInt8] { [0x0c, UInt8(text.utf8.count)] + Array(text.utf8) }
        func tlv(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] { [tag, UInt8(body.count)] + body }
        let dictBody = tlv(0x30, utf8("a") + [0x01, 0x01, 0xff]) + tlv(0x30, utf8("b") + tlv(0x30, utf8("x") + utf8("y")))
        let wrapped = tlv(0x70, [0x02, 0x01, 0x01] + tlv(0xb0, dictBody))
        let value = try PlistValue(derBytes: wrapped)
        #expect(value == .dictionary(["a": .bool(true), "b": .array([.string("x"), .string("y")])]))
        let bare = try PlistValue(derBytes: tlv(0x31, dictBody) + [0, 0, 0])
        #expect(bare == value)
        #expect(throws: DERError.self) { try PlistValue(derBytes: tlv(0x31, tlv(0x30, utf8("a")))) }
        #expect(throws: DERError.self) { try PlistValue(derBytes: tlv(0x31, tlv(0x30, utf8("a") + [0x05, 0x00]))) }
    }
}
