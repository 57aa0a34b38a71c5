// Fuzzing only: compiled into the BetaServer module by Tests/Fuzz/fuzz.sh, never by SwiftPM.
import AppleFormats

/// The BetaServer targets by name.
public enum BetaServerFuzz {
    /// Every target of this module.
    public static let targets: [String: FuzzTarget] = ["http-head": requestStream, "http-chunked": chunkedBody]

    static let trusted = try? TrustedProxies(["10.0.0.0/8", "::1"])
    static let router: Router = {
        var router = Router()
        router.get("/apps/:app") { _, _ in .text("app") }
        router.post("/apps/:app/releases") { _, _ in .text("release") }
        router.get("/apps/:app/releases/:release/*file") { _, _ in .text("file") }
        return router
    }()

    // How far a parse got: an error, a complete head (with what it consumed) or a need for more bytes.
    enum HeadOutcome: Equatable {
        case failed(HTTPParseError)
        case complete(consumed: Int, method: String, target: String, fields: Int)
        case incomplete
    }

    static func parseHead(_ parser: inout RequestHeadParser, _ bytes: UnsafeRawBufferPointer) -> (HeadOutcome, RequestHead?) {
        do {
            switch try parser.parse(bytes) {
            case .incomplete: return (.incomplete, nil)
            case let .complete(head, consumed):
                return (.complete(consumed: consumed, method: head.method.rawValue, target: head.target, fields: head.headers.count), head)
            }
        } catch {
            return (.failed(error), nil)
        }
    }

    /// A connection's input: requests back to back (heads and bodies), read as the engine reads them,
    /// once all at once and once as it trickles in; both readings must agree.
    static func requestStream(_ bytes: UnsafeRawBufferPointer) {
        var splitter = FuzzSplitter(bytes)
        var position = 0
        for _ in 0 ..< 16 where position < bytes.count {
            var rest = UnsafeRawBufferPointer(rebasing: bytes[position...])
            let skip = RequestHeadParser.leadingEmptyLines(rest)
            position += skip
            rest = UnsafeRawBufferPointer(rebasing: rest[skip...])
            guard !rest.isEmpty else { return }
            var whole = RequestHeadParser()
            let (expected, parsedHead) = parseHead(&whole, rest)
            var parser = RequestHeadParser()
            var available = 0
            var outcome = HeadOutcome.incomplete
            repeat {
                available = min(rest.count, available + splitter.next(96))
                outcome = parseHead(&parser, UnsafeRawBufferPointer(rebasing: rest[..<available])).0
            } while outcome == .incomplete && available < rest.count
            fuzzCheck(outcome == expected, "parsing a head in pieces gives \(outcome), all at once \(expected)")
            guard let head = parsedHead, case let .complete(consumed, _, _, _) = expected else { return }
            exercise(head)
            position += consumed
            switch head.framing {
            case .none: break
            case let .length(length): position += Int(min(Int64(bytes.count - position), length))
            case .chunked:
                let body = UnsafeRawBufferPointer(rebasing: bytes[position...])
                guard let used = decodeChunked(body, splitter: &splitter) else { return }
                position += used
            }
        }
    }

    /// What handlers and middleware read from a head: routing, forwarding, ranges, conditionals, encodings.
    static func exercise(_ head: RequestHead) {
        var request = Request(method: head.method, target: head.target, version: head.version, headers: head.headers, peerAddress: "10.1.2.3")
        if let trusted { ForwardedHeaders.apply(to: &request, trusted: trusted) }
        fuzzConsume((request.path, request.query, request.queryValue("token"), request.baseURL, request.clientAddress))
        fuzzConsume(router.resolve(method: head.method, path: request.path))
        fuzzConsume((MediaType.forPath(request.path), Gzip.isAccepted(by: head.headers)))
        if let range = head.headers["Range"] {
            for length: Int64 in [0, 1, 1000, Int64.max] {
                if case let .ranges(ranges) = ByteRanges.evaluate(range, length: length) {
                    fuzzCheck(ranges.allSatisfy { $0.lowerBound >= 0 && $0.upperBound < length }, "a satisfiable range \(ranges) lies outside \(length) bytes")
                }
            }
        }
        let validators = Validators(etag: "\"5f2a-1c\"", modified: 1_700_000_000)
        fuzzConsume((validators.evaluatePreconditions(request), validators.ifRangeAllows(request)))
        for (_, value) in head.headers { fuzzConsume(HTTPDate.parse(value)) }
    }

    /// A chunked request body, decoded all at once and in pieces; both must agree on data and length.
    static func chunkedBody(_ bytes: UnsafeRawBufferPointer) {
        var splitter = FuzzSplitter(bytes)
        fuzzConsume(decodeChunked(bytes, splitter: &splitter))
    }

    /// The bytes the decoder used, or nil when the body is malformed or incomplete.
    static func decodeChunked(_ bytes: UnsafeRawBufferPointer, splitter: inout FuzzSplitter) -> Int? {
        let limits = HTTPLimits()
        var whole = ChunkedDecoder(lineLimit: limits.chunkLineBytes, trailerLimit: limits.headerSectionBytes)
        var expectedData: [UInt8] = []
        let expected: Result<Int, HTTPParseError>
        do { expected = .success(try whole.decode(bytes) { expectedData.append(contentsOf: $0) }) } catch { expected = .failure(error) }

        var pieces = ChunkedDecoder(lineLimit: limits.chunkLineBytes, trailerLimit: limits.headerSectionBytes)
        var data: [UInt8] = []
        var used = 0
        var failure: HTTPParseError?
        while used < bytes.count && !pieces.isDone {
            let end = min(bytes.count, used + splitter.next(64))
            let given = end - used
            do {
                let step = try pieces.decode(UnsafeRawBufferPointer(rebasing: bytes[used ..< end])) { data.append(contentsOf: $0) }
                fuzzCheck(step <= given, "the decoder claims more bytes than it was given")
                used += step
                if step < given { break }  // the body ended inside this piece
            } catch {
                failure = error
                break
            }
        }
        switch expected {
        case let .success(count):
            fuzzCheck(failure == nil && count == used && data == expectedData && pieces.isDone == whole.isDone,
                      "chunked decoding in pieces (\(used) bytes, \(failure.map { "\($0)" } ?? "no error")) differs from all at once (\(count) bytes)")
        case let .failure(error):
            fuzzCheck(failure == error, "chunked decoding in pieces fails with \(failure.map { "\($0)" } ?? "nothing"), all at once with \(error)")
        }
        return whole.isDone ? used : nil
    }
}
