import Testing
@testable import Multipart

/// Every limit accepts a body exactly at it, refuses one byte more with an error naming the
/// part and the limit, and is reported at the byte that breaks it however the body is cut.
@Suite struct LimitTests {
    let b = Bodies.boundary

    func body(_ parts: [(String, String)], preamble: String = "", epilogue: String = "\r\n") -> [UInt8] {
        var text = preamble.isEmpty ? "" : preamble + "\r\n"
        for (name, value) in parts {
            text += "--\(b)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
        }
        return Array((text + "--\(b)--" + epilogue).utf8)
    }

    /// The outcome, checked to be the same for every single cut.
    func outcome(_ bytes: [UInt8], _ limits: MultipartLimits, stripsCRLF: Bool = false) -> Outcome {
        let whole = parse(bytes, limits: limits, stripsCRLF: stripsCRLF)
        for cut in 0...bytes.count {
            let cutOutcome = parse(bytes, cuts: [cut], limits: limits, stripsCRLF: stripsCRLF)
            if cutOutcome != whole {
                Issue.record("cut at \(cut) gave \(cutOutcome), whole \(whole)")
                break
            }
        }
        return whole
    }

    @Test func numberOfParts() {
        let bytes = body([("a", "1"), ("b", "2"), ("c", "3")])
        #expect(outcome(bytes, MultipartLimits(maxParts: 3)).parts?.count == 3)
        #expect(outcome(bytes, MultipartLimits(maxParts: 2)) == .failed(.tooManyParts(limit: 2)))
    }

    @Test func headerBytesPerPart() {
        let bytes = body([("a", "1")])
        let section = "Content-Disposition: form-data; name=\"a\"\r\n\r\n".utf8.count
        #expect(outcome(bytes, MultipartLimits(headerBytesPerPart: section)).parts?.count == 1)
        #expect(outcome(bytes, MultipartLimits(headerBytesPerPart: section - 1)) == .failed(.headerSectionTooLarge(part: .init(number: 1), limit: section - 1)))
    }

    @Test func bytesPerPartAndPerField() {
        let bytes = body([("notes", "0123456789"), ("report", "01234"), ("ipa", String(repeating: "x", count: 50))])
        let limits = MultipartLimits(bytesPerPart: 10, bytesPerField: ["report": 5, "ipa": 50])
        #expect(outcome(bytes, limits).parts?.map(\.body.count) == [10, 5, 50])
        var smaller = limits
        smaller.bytesPerField["report"] = 4
        #expect(outcome(bytes, smaller) == .failed(.partTooLarge(part: .init(number: 2, name: "report"), limit: 4)))
        smaller = limits
        smaller.bytesPerPart = 9
        #expect(outcome(bytes, smaller) == .failed(.partTooLarge(part: .init(number: 1, name: "notes"), limit: 9)))
        #expect(MultipartLimits(bytesPerPart: 7, bytesPerField: ["ipa": 2 << 30]).bytes(forField: "ipa") == 2 << 30)
        #expect(MultipartLimits(bytesPerPart: 7, bytesPerField: ["ipa": 2 << 30]).bytes(forField: "IPA") == 7)
    }

    @Test func theCRLFHeldForHockeySDKCountsOnlyWhenItIsKept() {
        // With the option, a last part "12345" + CRLF fits a 5-byte limit; the same part followed
        // by another boundary keeps its CRLF and does not.
        let last = Array("--\(b)\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n12345\r\n\r\n--\(b)--\r\n".utf8)
        #expect(outcome(last, MultipartLimits(bytesPerPart: 5), stripsCRLF: true).parts?.first?.body == Array("12345".utf8))
        let middle = Array("--\(b)\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n12345\r\n\r\n--\(b)\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\n\r\n--\(b)--".utf8)
        #expect(outcome(middle, MultipartLimits(bytesPerPart: 5), stripsCRLF: true) == .failed(.partTooLarge(part: .init(number: 1, name: "a"), limit: 5)))
        #expect(outcome(middle, MultipartLimits(bytesPerPart: 7), stripsCRLF: true).parts?.first?.body == Array("12345\r\n".utf8))
    }

    @Test func totalBytes() {
        let bytes = body([("a", "1"), ("b", "2")])
        #expect(outcome(bytes, MultipartLimits(totalBytes: Int64(bytes.count))).parts?.count == 2)
        #expect(outcome(bytes, MultipartLimits(totalBytes: Int64(bytes.count - 1))) == .failed(.totalTooLarge(limit: Int64(bytes.count - 1))))
    }

    @Test func preambleAndEpilogue() {
        let bytes = body([("a", "1")], preamble: String(repeating: "p", count: 100), epilogue: "\r\n" + String(repeating: "e", count: 98))
        #expect(outcome(bytes, MultipartLimits(preambleBytes: 100, epilogueBytes: 100)).parts?.count == 1)
        #expect(outcome(bytes, MultipartLimits(preambleBytes: 99, epilogueBytes: 100)) == .failed(.preambleTooLarge(limit: 99)))
        #expect(outcome(bytes, MultipartLimits(preambleBytes: 100, epilogueBytes: 99)) == .failed(.epilogueTooLarge(limit: 99)))
    }

    @Test func theFirstProblemInTheBodyIsReportedWhicheverLimitComesLater() {
        // Part 1 is too large and part 2's headers are malformed: the part limit comes first.
        let both = Array("--\(b)\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n0123456789\r\n--\(b)\r\nContent-Disposition form-data\r\n\r\nx\r\n--\(b)--".utf8)
        #expect(outcome(both, MultipartLimits(bytesPerPart: 5)) == .failed(.partTooLarge(part: .init(number: 1, name: "a"), limit: 5)))
        // A malformed header inside the total limit comes before the total limit.
        #expect(outcome(both, MultipartLimits(totalBytes: Int64(both.count - 5))) == .failed(.malformedHeader(part: .init(number: 2), reason: "the line \"Content-Disposition form-data\" has no colon")))
        // The header limit is met before the bare LF that comes after it.
        let long = Array("--\(b)\r\nContent-Disposition: form-data; name=\"a\"; filename=\"\(String(repeating: "f", count: 100))\"\n\r\n\r\n--\(b)--".utf8)
        #expect(outcome(long, MultipartLimits(headerBytesPerPart: 60)) == .failed(.headerSectionTooLarge(part: .init(number: 1), limit: 60)))
        #expect(outcome(long, MultipartLimits(headerBytesPerPart: 600)) == .failed(.malformedHeader(part: .init(number: 1), reason: "a line ends with LF alone (lines must end with CRLF)")))
    }
}
