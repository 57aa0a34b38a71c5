import Testing
@testable import Multipart

/// The parser's result must not depend on how the body was cut into chunks.
@Suite struct SplitIndependenceTests {
    static let hockey = HockeySDKBodies.crashUpload()

    @Test func everySingleCutOfASmallBodyGivesTheSameParts() {
        let body = Bodies.small()
        let whole = parse(body.bytes)
        #expect(whole == .parts(body.parts))
        for cut in 0...body.bytes.count {
            let outcome = parse(body.bytes, cuts: [cut])
            #expect(outcome == whole, "cut at \(cut)")
        }
        #expect(parseBytewise(body.bytes) == whole)
    }

    @Test func everyPairOfCutsNearBoundariesGivesTheSameParts() {
        // Two cuts around every delimiter, so a delimiter is split into three pieces every way.
        let body = Bodies.small()
        let whole = parse(body.bytes)
        for index in 0...body.parts.count {
            let end = body.delimiterEnd(index)
            let window = max(0, end - 30)...min(body.bytes.count, end + 4)
            for first in window {
                for second in first...window.upperBound {
                    #expect(parse(body.bytes, cuts: [first, second]) == whole, "cuts at \(first) and \(second)")
                }
            }
        }
    }

    @Test func theHockeySDKBodyGivesTheSameValuesHoweverItIsCut() {
        let body = Self.hockey.bytes
        let whole = parse(body, boundary: HockeySDKBodies.boundary, stripsCRLF: true)
        #expect(whole.parts?.count == 5)
        for cut in 0...body.count {
            #expect(parse(body, boundary: HockeySDKBodies.boundary, cuts: [cut], stripsCRLF: true) == whole, "cut at \(cut)")
        }
        #expect(parseBytewise(body, boundary: HockeySDKBodies.boundary, stripsCRLF: true) == whole)
    }

    @Test func aMalformedBodyFailsTheSameWayHoweverItIsCut() {
        let b = Bodies.boundary
        let bodies = [
            "--\(b)\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--\(b)x",
            "--\(b)\r\nContent-Disposition: form-data; name=\"a\"\n\r\n",
            "--\(b)\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n0123456789abcdef\r\n--\(b)--",
            "preamble that is too long\r\n--\(b)--",
        ]
        let limits = MultipartLimits(bytesPerPart: 10, preambleBytes: 10)
        for text in bodies {
            let bytes = Array(text.utf8)
            let whole = parse(bytes, limits: limits)
            #expect(whole.error != nil, "\(text.debugDescription) parsed")
            for cut in 0...bytes.count {
                #expect(parse(bytes, cuts: [cut], limits: limits) == whole, "\(text.debugDescription) cut at \(cut)")
            }
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func randomBodiesGiveTheirPartsUnderRandomCuts(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let body = RandomBodies.wellFormed(&random, size: 20_000 + Int(seed) * 9_000)
        let whole = parse(body.bytes, limits: RandomBodies.limits)
        #expect(whole == .parts(body.parts))
        for _ in 0..<20 {
            let cuts = (0..<Int.random(in: 1...60, using: &random)).map { _ in Int.random(in: 0...body.bytes.count, using: &random) }
            #expect(parse(body.bytes, cuts: cuts, limits: RandomBodies.limits) == whole, "cuts \(cuts.sorted())")
        }
    }

    @Test(arguments: 0..<16)
    func randomTokenSoupGivesOneOutcomeHoweverItIsCut(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed) &* 7919 &+ 11)
        for round in 0..<40 {
            let bytes = RandomBodies.soup(&random, tokens: Int.random(in: 1...40, using: &random))
            let limits = MultipartLimits(maxParts: 4, headerBytesPerPart: 120, bytesPerPart: 64, totalBytes: 600, preambleBytes: 40, epilogueBytes: 30)
            for strips in [false, true] {
                let whole = parse(bytes, limits: limits, stripsCRLF: strips)
                #expect(parseBytewise(bytes, limits: limits, stripsCRLF: strips) == whole, "round \(round): \(String(decoding: bytes, as: UTF8.self).debugDescription)")
                let cuts = (0..<3).map { _ in Int.random(in: 0...bytes.count, using: &random) }
                #expect(parse(bytes, cuts: cuts, limits: limits, stripsCRLF: strips) == whole, "round \(round) cuts \(cuts)")
            }
        }
    }

    @Test func theParserCarriesOnlyALookaheadBetweenChunks() throws {
        // A 32 MiB part fed in 1 MiB chunks: the parser itself keeps no more than a delimiter's
        // length (plus the held-back CRLF) between chunks, whatever the consumer does.
        var parser = MultipartParser(boundary: try MultipartBoundary(Bodies.boundary), limits: MultipartLimits(bytesPerPart: 1 << 30, totalBytes: 1 << 30),
                                     stripsCRLFBeforeCloseDelimiter: true) { _ in CountingConsumer() }
        try parser.feed(Array("--\(Bodies.boundary)\r\nContent-Disposition: form-data; name=\"ipa\"; filename=\"Big.ipa\"\r\n\r\n".utf8))
        let chunk = patternChunk(1 << 20)
        for _ in 0..<32 {
            try parser.feed(chunk)
            #expect(parser.carry.count <= parser.lookahead)
            #expect(parser.header.count < 200)
        }
        try parser.feed(Array("\r\n--\(Bodies.boundary)--\r\n".utf8))
        let parts = try parser.finish()
        #expect(parts.first?.value == 32 << 20)
    }
}

/// Counts bytes without keeping them.
struct CountingConsumer: MultipartPartConsumer {
    var count = 0
    mutating func consume(_ bytes: UnsafeRawBufferPointer) { count += bytes.count }
    mutating func finish() -> Int { count }
    mutating func discard() {}
}

/// Pseudo-random binary content with CRs and LFs but never the test boundary.
func patternChunk(_ count: Int, seed: UInt64 = 3) -> [UInt8] {
    var random = SeededRandom(seed: seed)
    return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next() >> 24) }
}

/// Random bodies for the sweeps.
enum RandomBodies {
    static let limits = MultipartLimits(maxParts: 1000, bytesPerPart: 1 << 24, totalBytes: 1 << 26)

    /// Content made of pieces that look like parts of a delimiter, so that cuts fall inside
    /// near-matches: CR, LF, dashes, prefixes of the boundary, and random bytes.
    static func content(_ random: inout SeededRandom, size: Int) -> [UInt8] {
        let b = Bodies.boundary
        let pieces: [[UInt8]] = ["\r", "\n", "\r\n", "--", "\r\n-", "\r\n--", "\r\n--\(b.prefix(5))", "\r\n--\(b.dropLast())",
                                 "\n--\(b)", "\r\r\n--\(b.dropLast(3))", "-\(b)"].map { Array($0.utf8) }
        var bytes: [UInt8] = []
        while bytes.count < size {
            if Int.random(in: 0..<3, using: &random) == 0 {
                bytes += pieces[Int.random(in: 0..<pieces.count, using: &random)]
            } else {
                bytes += (0..<Int.random(in: 1...200, using: &random)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            }
        }
        return withoutDelimiter(bytes)
    }

    /// Breaks every `CRLF--boundary` in the content, counting the CRLF that ends the part's
    /// headers before it, so that the content is exactly what the part holds.
    static func withoutDelimiter(_ content: [UInt8]) -> [UInt8] {
        let delimiter = Array("\r\n--\(Bodies.boundary)".utf8)
        var bytes: [UInt8] = [0x0D, 0x0A] + content
        var index = 0
        while index + delimiter.count <= bytes.count {
            if bytes[index..<(index + delimiter.count)].elementsEqual(delimiter) { bytes[index + delimiter.count - 1] = UInt8(ascii: "!") }
            index += 1
        }
        return Array(bytes.dropFirst(2))
    }

    static func wellFormed(_ random: inout SeededRandom, size: Int) -> BodyBuilder {
        var builder = BodyBuilder()
        if Bool.random(using: &random) { builder.preamble("preamble\r\n") }
        var used = 0
        var index = 0
        while used < size {
            let length = Int.random(in: 0...(size / 3), using: &random)
            let body = content(&random, size: length)
            builder.part("field\(index % 3)", filename: index % 2 == 0 ? "f\(index).bin" : nil,
                         contentType: index % 2 == 0 ? "application/octet-stream" : nil, body: body)
            used += body.count + 80
            index += 1
        }
        builder.close()
        return builder
    }

    /// Bytes stitched from multipart tokens in random order: mostly malformed, sometimes not.
    static func soup(_ random: inout SeededRandom, tokens: Int) -> [UInt8] {
        let b = Bodies.boundary
        let vocabulary: [[UInt8]] = ["--\(b)", "\r\n--\(b)", "--", "\r\n", "\r", "\n", " ", "\t", "x", "\r\n\r\n",
                                     "Content-Disposition: form-data; name=\"a\"", "Content-Disposition: form-data; name=\"b\"; filename*=UTF-8''%C3%A9",
                                     "Content-Type: text/plain", "value", "\r\n--\(b)--", "\r\n--\(b)\r\n", "--\(b)\r\nContent-Disposition: form-data; name=x\r\n\r\n"]
            .map { Array($0.utf8) }
        var bytes: [UInt8] = []
        for _ in 0..<tokens {
            bytes += vocabulary[Int.random(in: 0..<vocabulary.count, using: &random)]
        }
        return bytes
    }
}
