#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemShim

extension Connection {
    /// Header fields the engine owns; handler-set values are ignored.
    private static let engineFields = ["Content-Length", "Transfer-Encoding", "Connection", "Date", "Keep-Alive", "Server"]

    private static func isEngineField(_ name: String) -> Bool {
        engineFields.contains { HTTPHeaders.namesEqual($0, name) }
    }

    func handlerFinished(_ response: Response, generation: Int) {
        if generation == self.generation { handlerTask = nil }
        guard !closed, generation == self.generation, case .handling = phase else { return }
        writeResponse(response)
    }

    /// Serialises the head, queues the body and starts writing.
    func writeResponse(_ response: Response) {
        if loop.draining { keepAlive = false }
        let status = response.status
        let sendsBody = !requestIsHead && !status.forbidsBody
        var head: [UInt8] = []
        head.reserveCapacity(256)
        head.append(contentsOf: "HTTP/1.1 \(status.code) \(status.reason)\r\n".utf8)
        for field in response.headers {
            if Connection.isEngineField(field.name) { continue }
            guard Connection.isSafeField(field.name, field.value) else {
                core.log.message("warning: dropped response header '\(field.name)' with a control character")
                continue
            }
            head.append(contentsOf: field.name.utf8)
            head.append(contentsOf: ": ".utf8)
            head.append(contentsOf: field.value.utf8)
            head.append(contentsOf: "\r\n".utf8)
        }
        head.append(contentsOf: loop.currentDateField())
        if let name = core.configuration.serverName {
            head.append(contentsOf: "Server: \(name)\r\n".utf8)
        }
        chunkedResponse = false
        if case .stream = response.body {
            if requestVersion == .http11 {
                chunkedResponse = true
                if !status.forbidsBody { head.append(contentsOf: "Transfer-Encoding: chunked\r\n".utf8) }
            } else {
                keepAlive = false
            }
        } else if let length = response.body.knownLength, !(status.forbidsBody && length == 0) {
            if !(status.code == 304 || (100..<200).contains(status.code) || status.code == 204) {
                head.append(contentsOf: "Content-Length: \(length)\r\n".utf8)
            }
        }
        if !keepAlive {
            head.append(contentsOf: "Connection: close\r\n".utf8)
        } else if requestVersion == .http10 {
            head.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        head.append(contentsOf: "\r\n".utf8)

        phase = .responding
        finishHook = response.onFinish
        responseComplete = true
        rateWindowStart = loop.now
        rateWindowBytes = 0
        switch response.body {
        case .bytes(let bytes) where sendsBody:
            if bytes.count <= 16 * 1024 {
                head.append(contentsOf: bytes)
                outbound.append(head)
            } else {
                outbound.append(head)
                outbound.append(bytes)
            }
        case .file(let body) where sendsBody:
            outbound.append(head)
            for part in body.parts {
                switch part {
                case .bytes(let bytes): outbound.append(bytes)
                case .region(let file, let offset, let length): outbound.append(file: file, offset: offset, length: length)
                }
            }
        case .stream(let producer) where sendsBody:
            outbound.append(head)
            responseComplete = false
            startStream(producer)
        default:
            outbound.append(head)
        }
        flush()
    }

    static func isSafeField(_ name: String, _ value: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(ASCII.isToken) && value.utf8.allSatisfy(ASCII.isFieldValueByte)
    }

    // MARK: Writing

    func socketWritable() {
        canWrite = true
        if !outbound.isEmpty { flush() }
    }

    /// Writes queued data until the socket would block or the queue is empty.
    func flush() {
        while !closed, canWrite, let item = outbound.first {
            switch item {
            case .bytes(let bytes, let offset):
                // Queued byte items are never empty (OutboundQueue.append drops empty ones).
                let written = bytes.withUnsafeBytes { buffer in
                    buffer.baseAddress.map { write(fd, $0 + offset, buffer.count - offset) } ?? 0
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN || errno == EWOULDBLOCK { canWrite = false; return }
                    close()
                    return
                }
                outbound.advanceBytes(written)
                rateWindowBytes += Int64(written)
                if offset + written == bytes.count {
                    outbound.dropFirst()
                } else {
                    // A short write means the send buffer is full: wait for the writable edge
                    // instead of a write that would only fail with EAGAIN (as nginx does).
                    outbound.replaceFirst(.bytes(bytes, offset: offset + written))
                    canWrite = false
                    return
                }
            case .file(let file, let offset, let remaining):
                let chunk = Int(min(remaining, 1 << 30))
                var sent = shim_sendfile(fd, file.descriptor, offset, chunk)
                if sent < 0 && (errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP) {
                    sent = copyFileChunk(file, offset: offset, count: chunk)
                }
                if sent < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN || errno == EWOULDBLOCK { canWrite = false; return }
                    close()
                    return
                }
                if sent == 0 {
                    // The file shrank underneath us; the promised length can no longer be met.
                    core.log.message("error: \(file.path) ended early while being sent; closing the connection")
                    close()
                    return
                }
                rateWindowBytes += sent
                if sent == remaining {
                    outbound.dropFirst()
                } else {
                    outbound.replaceFirst(.file(file, offset: offset + sent, remaining: remaining - sent))
                    if sent < Int64(chunk) {
                        canWrite = false
                        return
                    }
                }
            }
        }
        guard !closed, outbound.isEmpty else { return }
        if let continuation = streamContinuation {
            streamContinuation = nil
            continuation.resume()
        }
        if case .responding = phase, responseComplete { responseFinished() }
    }

    /// Fallback when sendfile is unavailable: pread into the loop's scratch buffer, then write.
    private func copyFileChunk(_ file: OpenFile, offset: Int64, count: Int) -> Int64 {
        let length = min(count, EventLoop.scratchSize)
        let got = pread(file.descriptor, loop.scratch, length, off_t(offset))
        if got <= 0 { return Int64(got) }
        let written = write(fd, loop.scratch, got)
        return Int64(written)
    }

    private func responseFinished() {
        requestsHandled += 1
        if let hook = finishHook {
            finishHook = nil
            hook(.delivered)
        }
        if !keepAlive || (peerClosedInput && input.readable == 0) {
            if peerClosedInput { close() } else { beginLingeringClose() }
            return
        }
        phase = .head
        phaseStartedAt = loop.now
        process()
        if !closed, case .head = phase, canRead { readAndProcess() }
    }

    // MARK: Streaming bodies

    private func startStream(_ producer: @escaping @Sendable (BodyWriter) async throws -> Void) {
        let writer = BodyWriter(loop: loop, connection: LoopBound(value: self), generation: generation)
        let loop = self.loop
        let bound = LoopBound(value: self)
        let generation = self.generation
        streamTask = Connection.spawn({
            var failure: (any Error)?
            do {
                try await producer(writer)
            } catch {
                failure = error
            }
            let outcome = failure
            loop.run {
                loop.taskFinished()
                bound.value.finishStream(generation: generation, error: outcome)
            }
        }, execution: .concurrent, loop: loop)
    }

    func streamWrite(_ bytes: [UInt8], generation: Int, continuation: CheckedContinuation<Void, Error>) {
        guard !closed, generation == self.generation, !responseComplete else {
            continuation.resume(throwing: ConnectionClosedError())
            return
        }
        if chunkedResponse {
            var framed = Array(String(bytes.count, radix: 16).utf8)
            framed.append(contentsOf: "\r\n".utf8)
            framed.append(contentsOf: bytes)
            framed.append(contentsOf: "\r\n".utf8)
            outbound.append(framed)
        } else {
            outbound.append(bytes)
        }
        streamContinuation = continuation
        if outbound.bufferedBytes < 256 * 1024 {
            streamContinuation = nil
            continuation.resume()
        }
        flush()
    }

    func finishStream(generation: Int, error: Error?) {
        if generation == self.generation { streamTask = nil }
        guard !closed, generation == self.generation, !responseComplete else { return }
        if let error {
            if !(error is ConnectionClosedError) && !(error is CancellationError) {
                core.log.message("error: streaming response body failed: \(error); closing the connection")
            }
            close()
            return
        }
        if chunkedResponse { outbound.append(Array("0\r\n\r\n".utf8)) }
        responseComplete = true
        flush()
    }
}

/// Writes a streamed response body; each write waits while too much is buffered (back-pressure).
public struct BodyWriter: Sendable {
    private let sink: @Sendable ([UInt8]) async throws -> Void

    /// A writer that hands each piece to `sink`: the engine's sends it to the connection, an
    /// in-process client's collects it.
    init(sink: @escaping @Sendable ([UInt8]) async throws -> Void) {
        self.sink = sink
    }

    /// A writer feeding connection `connection` on `loop`, for response `generation`.
    init(loop: EventLoop, connection: LoopBound<Connection>, generation: Int) {
        self.init { bytes in
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                loop.run { connection.value.streamWrite(bytes, generation: generation, continuation: continuation) }
            }
        }
    }

    /// Sends `bytes` as the next piece of the body.
    public func write(_ bytes: [UInt8]) async throws {
        guard !bytes.isEmpty else { return }
        try await sink(bytes)
    }

    /// Sends `text` as UTF-8.
    public func write(_ text: String) async throws { try await write(Array(text.utf8)) }
}
