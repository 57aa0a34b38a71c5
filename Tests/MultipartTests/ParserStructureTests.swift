import Testing
@testable import Multipart

/// The body grammar of RFC 2046 §5.1.1 and the choices the parser documents.
@Suite struct ParserStructureTests {
    let b = Bodies.boundary

    func field(_ name: String, _ value: String, index: Int) -> ParsedPart {
        ParsedPart(head: MultipartPartHead(index: index, name: name, fields: [.init(name: "Content-Disposition", value: "form-data; name=\"\(name)\"")]),
                   body: Array(value.utf8))
    }

    func body(_ text: String) -> [UInt8] { Array(text.replacingOccurrences(of: "{B}", with: b).utf8) }

    @Test func theBuiltBodyParsesToItsParts() {
        let small = Bodies.small()
        #expect(parse(small.bytes) == .parts(small.parts))
    }

    @Test func aClosingBoundaryWithoutTrailingCRLFEndsTheBody() {
        let bytes = body("--{B}\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue\r\n--{B}--")
        #expect(parse(bytes) == .parts([field("a", "value", index: 0)]))
    }

    @Test func spacesAndTabsAfterABoundaryAreTransportPadding() {
        let bytes = body("--{B} \t \r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue\r\n--{B}\t\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\n2\r\n--{B}--  \r\n")
        #expect(parse(bytes) == .parts([field("a", "value", index: 0), field("b", "2", index: 1)]))
    }

    @Test func paddingIsBoundedAt256Bytes() {
        let fits = body("--{B}" + String(repeating: " ", count: 256) + "\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--{B}--")
        #expect(parse(fits) == .parts([field("a", "v", index: 0)]))
        let tooMuch = body("--{B}" + String(repeating: " ", count: 257) + "\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--{B}--")
        #expect(parse(tooMuch) == .failed(.malformedBoundaryLine(after: nil, reason: "has more than 256 spaces after the boundary")))
    }

    @Test func duplicateFieldNamesAreKeptInOrder() {
        let bytes = body("--{B}\r\nContent-Disposition: form-data; name=\"dsym\"\r\n\r\none\r\n--{B}\r\nContent-Disposition: form-data; name=\"notes\"\r\n\r\nn\r\n--{B}\r\nContent-Disposition: form-data; name=\"dsym\"\r\n\r\ntwo\r\n--{B}--\r\n")
        let outcome = parse(bytes)
        #expect(outcome == .parts([field("dsym", "one", index: 0), field("notes", "n", index: 1), field("dsym", "two", index: 2)]))
    }

    @Test func emptyPartsAndAPartWithOnlyCRLFAreDistinct() {
        let bytes = body("--{B}\r\nContent-Disposition: form-data; name=\"empty\"\r\n\r\n\r\n--{B}\r\nContent-Disposition: form-data; name=\"crlf\"\r\n\r\n\r\n\r\n--{B}--")
        #expect(parse(bytes) == .parts([field("empty", "", index: 0), field("crlf", "\r\n", index: 1)]))
    }

    @Test func aBodyWithOnlyTheClosingBoundaryHasNoParts() {
        #expect(parse(body("--{B}--\r\n")) == .parts([]))
        #expect(parse(body("preamble\r\n--{B}--")) == .parts([]))
    }

    @Test func dashesAndBoundaryTextNotAtALineStartAreContent() {
        let content = "--\r\n-- \r\n x--{B} in the middle\r\nx--{B}--\r\n\n--{B}\r\r--{B}\r\n-\r\n"
        let bytes = body("--{B}\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n" + content + "\r\n--{B}--")
        #expect(parse(bytes) == .parts([field("a", content.replacingOccurrences(of: "{B}", with: b), index: 0)]))
    }

    @Test func aBoundaryFollowedByOtherTextIsAnErrorNotContent() {
        // RFC 2046 forbids the boundary inside content and treats a longer string starting with it as the boundary.
        let bytes = body("--{B}\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nline\r\n--{B}x\r\n--{B}--")
        #expect(parse(bytes) == .failed(.malformedBoundaryLine(after: .init(number: 1, name: "a"), reason: "is followed by \"x\"")))
        let single = body("--{B}\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nline\r\n--{B}-\r\n")
        #expect(parse(single) == .failed(.malformedBoundaryLine(after: .init(number: 1, name: "a"), reason: "has a single \"-\" after the boundary")))
        let padded = body("--{B}  x\r\n")
        #expect(parse(padded) == .failed(.malformedBoundaryLine(after: nil, reason: "is followed by \"x\"")))
    }

    @Test func bareLineFeedsAreRefusedInBoundaryLinesAndHeaders() {
        // An LF-only body (as some hand-written clients send) is refused at its first boundary line.
        let lfOnly = body("--{B}\nContent-Disposition: form-data; name=\"a\"\n\nvalue\n--{B}--\n")
        #expect(parse(lfOnly) == .failed(.malformedBoundaryLine(after: nil, reason: "ends with LF alone (lines must end with CRLF)")))
        let lfHeader = body("--{B}\r\nContent-Disposition: form-data; name=\"a\"\n\r\nvalue\r\n--{B}--")
        #expect(parse(lfHeader) == .failed(.malformedHeader(part: .init(number: 1), reason: "a line ends with LF alone (lines must end with CRLF)")))
        let crHeader = body("--{B}\r\nContent-Disposition: form-data; name=\"a\"\r\rvalue\r\n--{B}--")
        #expect(parse(crHeader) == .failed(.malformedHeader(part: .init(number: 1), reason: "a CR is not followed by LF")))
        let crLine = body("--{B}\rX")
        #expect(parse(crLine) == .failed(.malformedBoundaryLine(after: nil, reason: "has a CR that is not followed by LF")))
        // Inside a part's body LF-only text is content, kept as sent.
        let lfContent = body("--{B}\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\none\ntwo\n\r\n--{B}--")
        #expect(parse(lfContent) == .parts([field("a", "one\ntwo\n", index: 0)]))
    }

    @Test func preambleAndEpilogueAreSkipped() {
        let bytes = body("This is a message with multiple parts in MIME format.\r\n\r\n--{B}\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--{B}--\r\nThis is the epilogue.\r\n--{B}\r\nanything at all\n")
        #expect(parse(bytes) == .parts([field("a", "v", index: 0)]))
        // A body starting with CRLF has an empty preamble.
        #expect(parse(body("\r\n--{B}\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--{B}--")) == .parts([field("a", "v", index: 0)]))
    }

    @Test func aBodyWithoutItsBoundaryOrCutShortIsRefused() {
        #expect(parse([]) == .failed(.boundaryNotFound(boundary: b)))
        #expect(parse(body("--other\r\n\r\n--other--")) == .failed(.boundaryNotFound(boundary: b)))
        #expect(parse(body("--{B}\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nval")) == .failed(.truncated(boundary: b, part: .init(number: 1, name: "a"))))
        #expect(parse(body("--{B}\r\nContent-Disposition: form-data; name=\"a\"\r\n")) == .failed(.truncated(boundary: b, part: .init(number: 1))))
        #expect(parse(body("--{B}\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--{B}")) == .failed(.truncated(boundary: b, part: .init(number: 1, name: "a"))))
        #expect(parse(body("--{B}\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--{B}\r")) == .failed(.truncated(boundary: b, part: nil)))
        #expect(parse(body("--{B}\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--{B}-")) == .failed(.truncated(boundary: b, part: .init(number: 1, name: "a"))))
    }

    @Test func aFailedParserKeepsFailingWithTheSameErrorAndAFinishedOneRefusesMore() throws {
        var parser = MultipartParser(boundary: try MultipartBoundary(b)) { _ in CollectingConsumer() }
        #expect(throws: MultipartError.malformedBoundaryLine(after: nil, reason: "is followed by \"x\"")) { try parser.feed(body("--{B}x")) }
        #expect(throws: MultipartError.malformedBoundaryLine(after: nil, reason: "is followed by \"x\"")) { try parser.feed(body("\r\n")) }
        #expect(throws: MultipartError.malformedBoundaryLine(after: nil, reason: "is followed by \"x\"")) { _ = try parser.finish() }

        var done = MultipartParser(boundary: try MultipartBoundary(b)) { _ in CollectingConsumer() }
        try done.feed(body("--{B}--"))
        #expect(try done.finish().isEmpty)
        #expect(throws: MultipartError.alreadyFinished) { try done.feed([1]) }
        #expect(throws: MultipartError.alreadyFinished) { _ = try done.finish() }
    }

    @Test func theConsumerFactorySeesEachHeadInOrderBeforeItsBody() throws {
        var seen: [String] = []
        var parser = MultipartParser(boundary: try MultipartBoundary(b)) { head in
            seen.append("\(head.index):\(head.name)")
            return CollectingConsumer()
        }
        try parser.feed(body("--{B}\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1"))
        #expect(seen == ["0:a"])
        try parser.feed(body("\r\n--{B}\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\n2\r\n--{B}--"))
        #expect(seen == ["0:a", "1:b"])
        let parts = try parser.finish()
        #expect(parts.map(\.name) == ["a", "b"])
        #expect(parts.first(named: "b")?.value == Array("2".utf8))
        #expect(parts.all(named: "a").count == 1)
    }

    @Test func errorsFromACustomConsumerNameThePart() throws {
        struct Refusal: Error, CustomStringConvertible { var description: String { "no room for dSYMs today" } }
        var parser = MultipartParser(boundary: try MultipartBoundary(b)) { head -> CollectingConsumer in
            if head.name == "dsym" { throw Refusal() }
            return CollectingConsumer()
        }
        #expect(throws: MultipartError.consumerFailed(part: .init(number: 2, name: "dsym"), reason: "no room for dSYMs today")) {
            try parser.feed(body("--{B}\r\nContent-Disposition: form-data; name=\"ipa\"\r\n\r\n1\r\n--{B}\r\nContent-Disposition: form-data; name=\"dsym\"\r\n\r\n"))
        }
    }

    @Test func everyErrorMessageIsOneSentenceNamingTheProblem() {
        let errors: [MultipartError] = [
            .truncated(boundary: "b", part: .init(number: 2, name: "ipa")),
            .partTooLarge(part: .init(number: 1, name: "report"), limit: 10),
            .malformedBoundaryLine(after: nil, reason: "is followed by \"x\""),
            .invalidContentDisposition(part: .init(number: 3), reason: "it has no name parameter"),
            .storageFailed(part: .init(number: 1, name: "ipa"), reason: "No space left on device"),
        ]
        let texts = errors.map(\.description)
        #expect(texts[0] == "the body ended inside part 2 (\"ipa\") without the closing boundary \"--b--\"; send the complete body")
        #expect(texts[1] == "part 1 (\"report\") is larger than its limit of 10 bytes; send a smaller file or raise the limit for this field")
        #expect(texts[2].hasPrefix("the boundary line starting the first part is followed by \"x\"; "))
        #expect(texts[3].hasPrefix("the Content-Disposition of part 3 is invalid: it has no name parameter; "))
        #expect(texts[4].hasPrefix("cannot store part 1 (\"ipa\"): No space left on device; "))
        #expect(texts.allSatisfy { !$0.contains("\n") && !$0.hasSuffix(".") })
        #expect(MultipartError.Part(number: 1, name: String(repeating: "n", count: 500)).description.count < 140)
        #expect(MultipartError.Part(number: 1, name: "a\r\nb").description == "part 1 (\"a??b\")")
    }

    @Test func errorCategoriesTellLimitsFromMalformedBodies() {
        #expect(MultipartError.totalTooLarge(limit: 1).category == .limitExceeded)
        #expect(MultipartError.tooManyParts(limit: 1).category == .limitExceeded)
        #expect(MultipartError.truncated(boundary: "b", part: nil).category == .malformed)
        #expect(MultipartError.storageFailed(part: nil, reason: "x").category == .storage)
        #expect(MultipartError.alreadyFinished.category == .caller)
    }
}
