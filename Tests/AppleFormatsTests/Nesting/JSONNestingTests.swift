import Foundation
import Testing
@testable import AppleFormats
import TestSupport

/// JSON from outside is held to `JSONNesting.maximumDepth` before `JSONParser` or JSONDecoder reads
/// it: nested exactly to the limit it is read, on half a server worker's stack in this build, and
/// one level more is refused naming the depth and the limit.
@Suite struct JSONNestingTests {
    static let limit = JSONNesting.maximumDepth

    /// `text` with `"nested": <arrays>` as the first member of its first object, so that the
    /// document nests `depth` deep.
    static func withNestedMember(_ text: [UInt8], depth: Int) throws -> [UInt8] {
        let brace = try #require(text.firstIndex(of: UInt8(ascii: "{")))
        return Array(text[...brace]) + Array("\"nested\": \(NestedData.jsonArrays(depth - 1)), ".utf8) + Array(text[(brace + 1)...])
    }

    @Test(arguments: ["arrays", "objects"])
    func theParserReadsJSONNestedToTheLimitOnHalfAWorkersStack(_ shape: String) {
        let text = Array((shape == "arrays" ? NestedData.jsonArrays(Self.limit) : NestedData.jsonObjects(Self.limit)).utf8)
        let equal = SmallStack.run { () -> Bool? in
            guard let value = try? JSONParser.parse(text), let again = try? JSONParser.parse(text) else { return nil }
            return value == again
        }
        #expect(equal == true)
    }

    @Test(arguments: ["arrays", "objects"])
    func theParserRefusesOneLevelMoreWithTheDepthAndTheLimit(_ shape: String) {
        let text = Array((shape == "arrays" ? NestedData.jsonArrays(Self.limit + 1) : NestedData.jsonObjects(Self.limit + 1)).utf8)
        let offset = shape == "arrays" ? Self.limit : Self.limit * 5
        do {
            _ = try JSONParser.parse(text)
            Issue.record("JSON nested \(Self.limit + 1) deep was read")
        } catch {
            #expect(error.nesting == JSONNesting.TooDeep(offset: offset, depth: Self.limit + 1, limit: Self.limit))
            #expect(error.description == "arrays and objects nest 101 levels deep, more than the 100 allowed; real reports nest fewer than 30 at byte \(offset)")
        }
    }

    @Test func theCheckCountsOnlyBracketsOutsideStrings() {
        #expect(throws: Never.self) { try JSONNesting.check(Array(NestedData.jsonArrays(Self.limit).utf8)) }
        #expect(throws: JSONNesting.TooDeep(offset: Self.limit, depth: Self.limit + 1, limit: Self.limit)) {
            try JSONNesting.check(Array(NestedData.jsonArrays(Self.limit + 1).utf8))
        }
        let quoted = "[\"" + String(repeating: "[{", count: 500) + "\\\"[[\", \"\\\\\"]"
        #expect(throws: Never.self) { try JSONNesting.check(Array(quoted.utf8)) }
        #expect(throws: JSONNesting.TooDeep(offset: 6, depth: 3, limit: 2)) { try JSONNesting.check(Array("[\"]\",[[]]]".utf8), limit: 2) }
    }

    @Test func anIPSBodyNestedToTheLimitIsReadAndOneMoreIsRefused() throws {
        let ips = [UInt8](try LocalFixtures.data("symbols/crashes/App-309.ips"))
        let newline = try #require(ips.firstIndex(of: 0x0A))
        func report(_ depth: Int) throws -> Result<CrashReport, CrashReportError> {
            let bytes = Array(ips[...newline]) + (try Self.withNestedMember(Array(ips[(newline + 1)...]), depth: depth))
            return SmallStack.run { Result { () throws(CrashReportError) in try CrashReport(bytes: bytes) } }
        }
        #expect(try report(Self.limit).get().threads.isEmpty == false)
        guard case let .failure(error) = try report(Self.limit + 1) else {
            Issue.record("an .ips body nested \(Self.limit + 1) deep was read")
            return
        }
        #expect(error.description.contains("nest 101 levels deep, more than the 100 allowed"), "\(error)")
    }

    @Test func aKSCrashReportNestedToTheLimitIsReadAndOneMoreIsRefused() throws {
        let original = [UInt8](try LocalFixtures.data("inspect/kscrash/kscrash-3.4.0-microseconds.json"))
        let atLimit = try Self.withNestedMember(original, depth: Self.limit)
        let read = SmallStack.run { (try? KSCrashReport(bytes: atLimit))?.processName }
        #expect(read == "App")
        let over = try Self.withNestedMember(original, depth: Self.limit + 1)
        let offset = try #require(over.firstIndex(of: UInt8(ascii: "["))) + Self.limit - 1
        #expect(throws: KSCrashReportError.nestedTooDeep(JSONNesting.TooDeep(offset: offset, depth: Self.limit + 1, limit: Self.limit))) {
            try KSCrashReport(bytes: over)
        }
    }

    @Test func hockeyAppXMLNestedToItsLimitIsReadOnHalfAWorkersStack() {
        let limit = XMLTreeReader.maxDepth
        @Sendable func xml(_ depth: Int) -> [UInt8] { Array((String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)).utf8) }
        let read = SmallStack.run { () -> Bool in (try? XMLTreeReader.parse(xml(limit))) != nil }
        #expect(read)
        #expect(throws: XMLTreeError(offset: 3 * limit, reason: "elements nest 65 levels deep, more than the 64 allowed")) { try XMLTreeReader.parse(xml(limit + 1)) }
    }
}
