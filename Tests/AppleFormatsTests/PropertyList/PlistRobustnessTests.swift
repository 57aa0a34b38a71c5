import Foundation
import Testing
@testable import AppleFormats

/// Malformed property lists give a `PlistError` that says what is wrong, never a trap, a hang
/// or an explosion of memory.
@Suite struct PlistRobustnessTests {
    /// A bplist00 of `objects` (each its encoded bytes) with 2-byte offsets and 1-byte references.
    static func binaryPlist(_ objects: [[UInt8]], top: Int = 0, referenceSize: UInt8 = 1, offsetSize: Int = 2) -> [UInt8] {
        func bigEndian(_ value: Int, _ size: Int) -> [UInt8] { (0 ..< size).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += bigEndian(offset, offsetSize) }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), referenceSize]
        return bytes + bigEndian(objects.count, 8) + bigEndian(top, 8) + bigEndian(table, 8)
    }

    static func failure(_ bytes: [UInt8]) -> String? {
        do {
            _ = try PlistValue(parsing: bytes)
            return nil
        } catch {
            return error.description
        }
    }

    @Test(arguments: [
        ("<plist><dict><key>a</key><string>x</string></plist>", "expected </dict>"),
        ("<plist><dict><key>a</key><true/><key>a</key><false/></dict></plist>", "key \"a\" appears twice"),
        ("<plist><dict><string>x</string></dict></plist>", "where a dictionary needs a <key>"),
        ("<plist><dict><key>a</key></dict></plist>", "key \"a\" has no value"),
        ("<plist><blob/></plist>", "<blob> is not a property list element"),
        ("<plist><integer>12x</integer></plist>", "is not a whole number"),
        ("<plist><integer>9223372036854775808</integer></plist>", "larger than a signed 64-bit integer"),
        ("<plist><integer>99999999999999999999</integer></plist>", "does not fit in 64 bits"),
        ("<plist><integer></integer></plist>", "holds no number"),
        ("<plist><real>one</real></plist>", "is not a number"),
        ("<plist><date>2024-13-01T00:00:00Z</date></plist>", "is not a UTC date"),
        ("<plist><date>2024-01-01 00:00:00</date></plist>", "is not a UTC date"),
        ("<plist><data>AB*=</data></plist>", "is not valid base64"),
        ("<plist><data>QUJD=</data></plist>", "is not valid base64"),
        ("<plist><data>QQ==QQ==</data></plist>", "is not valid base64"),
        ("<plist><string>a &bogus; b</string></plist>", "not a known entity"),
        ("<plist><string>a & b</string></plist>", "starts no entity"),
        ("<plist><string>a <b>bold</b></string></plist>", "contains an element"),
        ("<plist><string>never closed", "is never closed"),
        ("<plist><key>a</key></plist>", "<key> appears outside a dictionary"),
        ("<plist><true/><false/></plist>", "expected </plist>"),
        ("<plist><true/></plist> trailing", "content follows"),
        ("<plist/>", "holds no value"),
        ("", "there is no element"),
        ("just some text", "text stands where an element belongs"),
        ("<!-- unterminated", "comment is never closed"),
    ])
    func rejectsMalformedXML(_ xml: String, _ phrase: String) {
        let message = Self.failure(Array(xml.utf8))
        #expect(message?.contains(phrase) == true, "\(xml): \(message ?? "parsed")")
        #expect(message?.hasPrefix("the XML property list (\(xml.utf8.count) bytes) cannot be parsed: at byte ") == true)
    }

    @Test func rejectsTextThatIsNotUTF8() {
        let bytes = Array("<plist><string>".utf8) + [0xC3, 0x28] + Array("</string></plist>".utf8)
        #expect(Self.failure(bytes)?.contains("not UTF-8") == true)
    }

    @Test func rejectsNestingDeeperThanTheLimitWithoutExhaustingTheStack() {
        let xml = String(repeating: "<array>", count: 100_000) + String(repeating: "</array>", count: 100_000)
        #expect(Self.failure(Array(xml.utf8))?.contains("nest 65 levels deep, more than the 64 allowed") == true)
    }

    /// Two chains of one-element arrays, each `length` long; the second chain's last array holds the
    /// first chain's top, and the top object holds both chain tops. Object references are 2 bytes.
    static func sharedChains(length: Int) -> [UInt8] {
        var objects: [[UInt8]] = [[0x09]]
        func array(_ references: [Int]) -> [UInt8] {
            [0xA0 | UInt8(references.count)] + references.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
        for index in 1 ..< length { objects.append(array([index - 1])) }
        objects.append(array([length - 1]))
        for index in length + 1 ..< 2 * length { objects.append(array([index - 1])) }
        objects.append(array([length - 1, 2 * length - 1]))
        return binaryPlist(objects, top: objects.count - 1, referenceSize: 2, offsetSize: 4)
    }

    @Test func aSharedSubtreeReferencedFromDeeperDownStillRespectsTheNestingLimit() throws {
        // The top and each chain of 33 arrays (the first shared into the end of the second) nest 66 deep.
        #expect(Self.failure(Self.sharedChains(length: 33))?.contains("through object 32, arrays and dictionaries nest 66 levels deep, more than the 64 allowed") == true)
        // Chains of 32 (64 deep through the shared one) are within the limit.
        #expect(Self.failure(Self.sharedChains(length: 32)) == nil)
    }

    @Test func rejectsBinaryReferenceCyclesAndOutOfRangeReferences() {
        #expect(Self.failure(Self.binaryPlist([[0xA1, 0x00]]))?.contains("object 0 contains itself") == true)
        #expect(Self.failure(Self.binaryPlist([[0xA1, 0x01], [0xA1, 0x00]]))?.contains("contains itself") == true)
        #expect(Self.failure(Self.binaryPlist([[0xA1, 0x07]]))?.contains("refers to object 7 of 1") == true)
        #expect(Self.failure(Self.binaryPlist([[0x09]], top: 3))?.contains("top object 3") == true)
    }

    @Test func rejectsSharedObjectsThatWouldExpandBeyondTheLimit() throws {
        // Object n is an array holding object n-1 twice: 2^40 values if expanded.
        var objects: [[UInt8]] = [[0x09]]
        for index in 1 ... 40 { objects.append([0xA2, UInt8(index - 1), UInt8(index - 1)]) }
        #expect(Self.failure(Self.binaryPlist(objects, top: 40))?.contains("expand to more than") == true)
        // Sharing within the limit is fine and keeps the values.
        #expect(try PlistValue(parsing: Self.binaryPlist(Array(objects[0 ... 3]), top: 3)).array?.count == 2)
    }

    @Test(arguments: [
        ([UInt8](), "only version bplist00"),
        (Array("bplist01".utf8) + [UInt8](repeating: 0, count: 40), "only version bplist00"),
        (Array("bplist00".utf8) + [0x09], "too short"),
    ])
    func rejectsBinaryPlistsWithBadHeadersOrTrailers(_ bytes: [UInt8], _ phrase: String) {
        if bytes.isEmpty {
            #expect(Self.failure(bytes)?.contains("there is no element") == true)
        } else {
            #expect(Self.failure(bytes)?.contains(phrase) == true)
        }
    }

    @Test func rejectsValuesOutsideThePropertyListModel() {
        #expect(Self.failure(Self.binaryPlist([[0x00]]))?.contains("null") == true)
        #expect(Self.failure(Self.binaryPlist([[0x80, 0x01]]))?.contains("UID") == true)
        #expect(Self.failure(Self.binaryPlist([[0xC1, 0x01], [0x09]]))?.contains("set") == true)
        #expect(Self.failure(Self.binaryPlist([[0xD1, 0x01, 0x01], [0x09]]))?.contains("is not a string") == true)
        #expect(Self.failure(Self.binaryPlist([[0x5F, 0x10, 0xFF, 0x41]]))?.contains("run past the object area") == true)
    }

    static func sweep(_ original: [UInt8]) {
        for length in 0 ..< original.count { _ = try? PlistValue(parsing: Array(original[..<length])) }
        var mutated = original
        for position in original.indices {
            for mask: UInt8 in [0x01, 0x80, 0x5A] {
                mutated[position] ^= mask
                _ = try? PlistValue(parsing: mutated)
                mutated[position] = original[position]
            }
        }
    }

    @Test func xmlSurvivesEveryTruncationAndBitFlip() throws {
        let small: PlistValue = .dictionary(["a": .array([.integer(-5), .real(1.5), .bool(true), .date(Date(timeIntervalSince1970: 0))]),
                                             "b": .data([1, 2, 3, 4, 5]), "c": .string("x&y")])
        Self.sweep(try small.xmlBytes())
    }

    @Test func binarySurvivesEveryTruncationAndBitFlip() throws {
        let small: PlistValue = .dictionary(["a": .array([.integer(-5), .integer(300), .real(1.5), .bool(true), .date(Date(timeIntervalSince1970: 0))]),
                                             "b": .data([1, 2, 3, 4, 5]), "c": .string("x é"), "d": .array((0 ..< 16).map { .integer($0) })])
        Self.sweep(try small.binaryBytes())
    }
}
