import Testing
@testable import BetaServer

/// Truncation and bit-flip sweeps: the parsers must never trap, hang or accept garbage as a different request.
@Suite struct ParserFuzzTests {
    static let sample = "POST /upload/a%20b?x=1 HTTP/1.1\r\nHost: example.com\r\nContent-Type: text/plain\r\n"
        + "Transfer-Encoding: chunked\r\nExpect: 100-continue\r\nX-Forwarded-For: 10.0.0.1, 10.0.0.2\r\n\r\n"

    @Test func everyTruncationIsIncompleteNeverAnError() throws {
        let bytes = Array(Self.sample.utf8)
        for length in 0..<bytes.count {
            var parser = RequestHeadParser()
            let result = try bytes[0..<length].withUnsafeBytes { buffer in try parser.parse(buffer) }
            guard case .incomplete = result else {
                Issue.record("prefix of \(length) bytes parsed as complete")
                return
            }
        }
    }

    @Test func everySingleBitFlipEitherParsesOrFailsCleanly() {
        let bytes = Array(Self.sample.utf8)
        var rejected = 0
        for index in 0..<bytes.count {
            for bit in 0..<8 {
                var mutated = bytes
                mutated[index] ^= 1 << bit
                do {
                    if let head = try parseHead(mutated) {
                        // Whatever parsed must still satisfy the framing invariants.
                        #expect(!(head.headers.contains("Content-Length") && head.headers.contains("Transfer-Encoding")))
                    }
                } catch let error as HTTPParseError {
                    rejected += 1
                    #expect([400, 414, 417, 431, 501, 505].contains(error.status.code))
                } catch {
                    Issue.record("unexpected error \(error)")
                }
            }
        }
        #expect(rejected > bytes.count)
    }

    @Test func chunkedDecoderSurvivesTruncationAndBitFlips() {
        let body = Array("5;ext=1\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nTrailer: x\r\n\r\n".utf8)
        for length in 0...body.count {
            var decoder = ChunkedDecoder()
            let consumed = try? body[0..<length].withUnsafeBytes { buffer in
                try decoder.decode(buffer) { _ in }
            }
            #expect(consumed != nil)
            #expect(decoder.isDone == (length == body.count))
        }
        for index in 0..<body.count {
            for bit in 0..<8 {
                var mutated = body
                mutated[index] ^= 1 << bit
                var decoder = ChunkedDecoder()
                var total = 0
                _ = try? mutated.withUnsafeBytes { buffer in
                    try decoder.decode(buffer) { total += $0.count }
                }
                #expect(total <= mutated.count)
            }
        }
    }
}
