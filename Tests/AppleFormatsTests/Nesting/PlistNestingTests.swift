import Foundation
import Testing
@testable import AppleFormats
import TestSupport

/// Property lists nested exactly to `PlistValue.maximumNesting` are read, and everything done with
/// the value afterwards (comparing, hashing, rendering, writing, releasing) fits in half a server
/// worker's stack in this build; one level more is refused with `nestedTooDeep`.
@Suite struct PlistNestingTests {
    static let limit = PlistValue.maximumNesting

    /// Parses on a half-size worker stack and walks the value every recursive way there is.
    static func parseAndWalk(_ bytes: [UInt8]) -> Result<Int, PlistError> {
        SmallStack.run {
            do throws(PlistError) {
                let value = try PlistValue(parsing: bytes)
                let again = try PlistValue(parsing: bytes)
                var hasher = Hasher()
                value.hash(into: &hasher)
                _ = hasher.finalize()
                _ = value.displayText
                let fromXML = try PlistValue(parsing: value.xmlBytes())
                let fromBinary = try PlistValue(parsing: value.binaryBytes())
                guard value == again, value == fromXML, value == fromBinary else { return .success(-1) }
                return .success(Self.depth(of: value))
            } catch {
                return .failure(error)
            }
        }
    }

    /// How deep arrays and dictionaries nest in `value`, measured without recursion.
    static func depth(of value: PlistValue) -> Int {
        var deepest = 0
        var pending: [(PlistValue, Int)] = [(value, 0)]
        while let (next, depth) = pending.popLast() {
            switch next {
            case let .array(elements):
                deepest = max(deepest, depth + 1)
                pending += elements.map { ($0, depth + 1) }
            case let .dictionary(entries):
                deepest = max(deepest, depth + 1)
                pending += entries.values.map { ($0, depth + 1) }
            default: break
            }
        }
        return deepest
    }

    static let entries = [("UDID", "00008110-000A1B2C3D4E5F60"), ("PRODUCT", "iPhone14,5")]

    @Test(arguments: ["xml", "binary"])
    func aPlistNestedExactlyToTheLimitIsReadAndWalkedOnHalfAWorkersStack(_ format: String) throws {
        let bytes = format == "xml" ? NestedData.xmlPlist(Self.entries, depth: Self.limit) : NestedData.binaryPlist(Self.entries, depth: Self.limit)
        #expect(try Self.parseAndWalk(bytes).get() == Self.limit)
    }

    @Test(arguments: ["xml", "binary"])
    func onePastTheLimitIsRefusedNamingTheDepthAndTheLimit(_ format: String) {
        let bytes = format == "xml" ? NestedData.xmlPlist(Self.entries, depth: Self.limit + 1) : NestedData.binaryPlist(Self.entries, depth: Self.limit + 1)
        guard case let .failure(error) = Self.parseAndWalk(bytes) else {
            Issue.record("a \(format) plist nested \(Self.limit + 1) deep was read")
            return
        }
        #expect(error.kind == .nestedTooDeep(depth: Self.limit + 1, limit: Self.limit))
        #expect(error.reason.contains("nest \(Self.limit + 1) levels deep, more than the \(Self.limit) allowed"), "\(error)")
    }

    @Test func dictionariesCountAsLevelsLikeArrays() throws {
        let inner = String(repeating: "<dict><key>a</key>", count: Self.limit - 1) + "<dict/>" + String(repeating: "</dict>", count: Self.limit - 1)
        #expect(try Self.parseAndWalk(Array(inner.utf8)).get() == Self.limit)
        let over = "<dict><key>a</key>" + inner + "</dict>"
        #expect(throws: PlistError.self) { try PlistValue(parsing: Array(over.utf8)) }
        let selfClosing = String(repeating: "<array>", count: Self.limit) + "<array/>" + String(repeating: "</array>", count: Self.limit)
        #expect((try? PlistValue(parsing: Array(selfClosing.utf8))) == nil, "an empty <array/> one level past the limit counts as a level")
    }

    @Test func hostileNestingFarPastTheLimitIsRefusedAtTheLimit() {
        let xml = String(repeating: "<array>", count: 100_000) + String(repeating: "</array>", count: 100_000)
        guard case let .failure(error) = Self.parseAndWalk(Array(xml.utf8)) else {
            Issue.record("100,000 nested arrays were read")
            return
        }
        #expect(error.kind == .nestedTooDeep(depth: Self.limit + 1, limit: Self.limit))
    }

    @Test func derPropertyListsNestedToTheBERLimitAreReadOnHalfAWorkersStack() throws {
        // SEQUENCE (an array) nested: the BER parser allows 48 levels of elements.
        let limit = BERParser.Limits().maxDepth
        @Sendable func nested(_ levels: Int) -> [UInt8] {
            var bytes: [UInt8] = [0x30, 0x00]
            for _ in 1 ..< levels {
                let length = bytes.count
                bytes = [0x30] + (length < 0x80 ? [UInt8(length)] : [0x81, UInt8(length)]) + bytes
            }
            return bytes
        }
        let depth = SmallStack.run { () -> Int? in (try? PlistValue(derBytes: nested(limit))).map(Self.depth) }
        #expect(depth == limit)
        #expect(throws: DERError.tooDeep(offset: 2 * limit, limit: limit)) { try PlistValue(derBytes: nested(limit + 1)) }
        let element = SmallStack.run { () -> Int? in (try? ASN1Element(parsing: nested(limit))).map { _ in limit } }
        #expect(element == limit)
    }
}
