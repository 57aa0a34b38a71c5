import Testing
@testable import BetaServer

@Suite struct ChunkedDecoderTests {
    func decode(_ text: String, splitAt split: Int? = nil) throws -> (data: String, consumed: Int, done: Bool) {
        let bytes = Array(text.utf8)
        var decoder = ChunkedDecoder(lineLimit: 64, trailerLimit: 256)
        var data: [UInt8] = []
        var consumed = 0
        let pieces = split.map { [0..<min($0, bytes.count), min($0, bytes.count)..<bytes.count] } ?? [0..<bytes.count]
        for piece in pieces {
            let used = try bytes[piece].withUnsafeBytes { buffer in
                try decoder.decode(buffer) { data.append(contentsOf: $0) }
            }
            consumed += used
            if decoder.isDone { break }
        }
        return (String(decoding: data, as: UTF8.self), consumed, decoder.isDone)
    }

    @Test func decodesChunksWithExtensionsAndTrailers() throws {
        let result = try decode("5\r\nhello\r\n6;name=\"v\"\r\n world\r\n0\r\nX-Checksum: 1\r\n\r\n")
        #expect(result.data == "hello world")
        #expect(result.done)
    }

    @Test func splittingAtEveryByteGivesTheSameData() throws {
        let text = "3\r\nabc\r\nA\r\n0123456789\r\n0\r\n\r\n"
        for split in 0...text.utf8.count {
            let result = try decode(text, splitAt: split)
            #expect(result.data == "abc0123456789")
            #expect(result.done)
        }
    }

    @Test func stopsAtTheEndOfTheBodyLeavingPipelinedBytes() throws {
        let result = try decode("2\r\nok\r\n0\r\n\r\nGET / HTTP/1.1\r\n")
        #expect(result.consumed == "2\r\nok\r\n0\r\n\r\n".utf8.count)
    }

    @Test(arguments: ["g\r\n", "\r\n", "-1\r\n", ";x\r\n", "1234567890123456\r\n", "3\nabc\r\n"])
    func invalidChunkSizesAreRejected(text: String) {
        #expect(throws: HTTPParseError.invalidChunkSize) { _ = try decode(text) }
    }

    @Test(arguments: ["3\r\nabcX\r\n", "3\r\nabc\rX", "3;a\nabc", "0\r\n bad: fold\r\n\r\n",
                      "0\r\nnocolon\r\n\r\n", "0\r\nX: a\u{1}\r\n\r\n", "0\r\n\rX"])
    func malformedFramingIsRejected(text: String) {
        #expect(throws: HTTPParseError.malformedChunk) { _ = try decode(text) }
    }

    @Test func overlongExtensionsAndTrailersAreRejected() {
        #expect(throws: HTTPParseError.malformedChunk) {
            _ = try decode("1;" + String(repeating: "x", count: 100) + "\r\n")
        }
        #expect(throws: HTTPParseError.malformedChunk) {
            _ = try decode("0\r\nX: " + String(repeating: "x", count: 300) + "\r\n\r\n")
        }
    }
}
