#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemShim

/// One client connection: reads requests, runs them through the handler chain one at a time
/// (pipelined requests wait in the buffer, so responses stay in order) and writes responses.
///
/// Confined to its event loop's thread.
final class Connection {
    enum Phase {
        case head
        case body(BodyReader)
        case handling
        case responding
        case lingering
    }

    let fd: Int32
    let token: UInt64
    unowned let loop: EventLoop
    let peer: String
    let admission: Admission
    let input = ByteBuffer()
    var parser: RequestHeadParser
    var phase: Phase = .head
    var outbound = OutboundQueue()
    var canRead = true
    var canWrite = true
    var peerClosedInput = false
    var closed = false
    var keepAlive = true
    var requestsHandled = 0
    var generation = 0

    // The request in progress.
    var pendingRequest: Request?
    var pendingResolution: Router.Resolution?
    var requestVersion = HTTPVersion.http11
    var requestIsHead = false
    var responseComplete = true
    var chunkedResponse = false
    var streamContinuation: CheckedContinuation<Void, Error>?
    /// The current response's `onFinish`, called once when it is written or abandoned.
    var finishHook: (@Sendable (ResponseOutcome) -> Void)?
    /// The running request handler, cancelled when the client goes away or the connection is closed.
    var handlerTask: Task<Void, Never>?
    /// The task producing a streamed response body, cancelled likewise.
    var streamTask: Task<Void, Never>?

    // Timers (monotonic nanoseconds).
    var phaseStartedAt: UInt64
    var headFirstByteAt: UInt64 = 0
    var bodyStartedAt: UInt64 = 0
    var rateWindowStart: UInt64 = 0
    var rateWindowBytes: Int64 = 0
    var lingerDeadline: UInt64 = 0

    var core: ServerCore { loop.core }

    init(fd: Int32, token: UInt64, loop: EventLoop, peer: String, admission: Admission) {
        self.fd = fd
        self.token = token
        self.loop = loop
        self.peer = peer
        self.admission = admission
        self.parser = RequestHeadParser(limits: loop.core.configuration.limits)
        self.phaseStartedAt = loop.now
    }

    // MARK: Reading

    func socketReadable() {
        canRead = true
        readAndProcess()
    }

    /// Whether more input should be read now: always while parsing; while busy only up to a
    /// bounded amount of pipelined data, so a client cannot make us buffer without limit.
    private var wantsInput: Bool {
        switch phase {
        case .head, .body, .lingering: true
        case .handling, .responding: input.readable < core.configuration.limits.headerSectionBytes
        }
    }

    func readAndProcess() {
        while !closed && canRead && wantsInput {
            if case .lingering = phase {
                discardInput()
                return
            }
            let space = input.reserve(16 * 1024)
            let requested = min(space.count, 64 * 1024)
            let count = read(fd, space.start, requested)
            if count > 0 {
                // A short read drained the socket; edge-triggered polling reports the next arrival,
                // so skip the read that would only return EAGAIN (one syscall per request saved).
                if count < requested { canRead = false }
                input.commit(count)
                process()
            } else if count == 0 {
                canRead = false
                peerClosedInput = true
                peerFinishedSending()
                return
            } else {
                let code = errno
                if code == EINTR { continue }
                canRead = false
                if code != EAGAIN && code != EWOULDBLOCK { close() }
                return
            }
        }
    }

    /// The client half-closed: finish what can be finished, then close.
    private func peerFinishedSending() {
        switch phase {
        case .head:
            if input.readable == 0 {
                close()
            } else {
                fail(.badRequest, "the request ended before its header section was complete")
            }
        case .body:
            fail(.badRequest, "the request ended before its body was complete")
        case .handling:
            // Like Go's net/http, a client that stops sending while its request is handled has
            // gone away: the handler is cancelled. A response it still produces is written and
            // the connection closed, so a client that only half-closed is answered all the same.
            keepAlive = false
            handlerTask?.cancel()
        case .responding:
            keepAlive = false
        case .lingering:
            close()
        }
    }

    private func discardInput() {
        while canRead {
            let count = read(fd, loop.scratch, EventLoop.scratchSize)
            if count > 0 { continue }
            if count < 0 && errno == EINTR { continue }
            canRead = false
            if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) { close() }
            return
        }
    }

    /// Parses and dispatches as much buffered input as the current phase allows.
    func process() {
        while !closed {
            switch phase {
            case .head:
                if input.readable == 0 {
                    input.releaseIfEmpty()
                    return
                }
                let skip = input.withReadable { RequestHeadParser.leadingEmptyLines($0) }
                if skip > 0 {
                    input.consume(skip)
                    continue
                }
                if headFirstByteAt == 0 { headFirstByteAt = loop.now }
                let result: RequestHeadParser.Result
                do {
                    result = try input.withReadable { bytes throws(HTTPParseError) in try parser.parse(bytes) }
                } catch {
                    fail(error.status, error.description)
                    return
                }
                guard case .complete(let head, let consumed) = result else { return }
                input.consume(consumed)
                parser.reset()
                headFirstByteAt = 0
                begin(head)
            case .body(let reader):
                if input.readable > 0 {
                    let used: Int
                    do {
                        used = try input.withReadable { bytes throws(BodyError) in try reader.consume(bytes) }
                    } catch {
                        failBody(error)
                        return
                    }
                    input.consume(used)
                    rateWindowBytes += Int64(used)
                }
                guard reader.isDone else { return }
                guard var request = pendingRequest else { return }
                request.bodyExceededLimit = reader.exceededLimit
                request.body = reader.finish()
                dispatch(request)
            case .handling, .responding, .lingering:
                return
            }
        }
    }

    private func failBody(_ error: BodyError) {
        switch error {
        case .framing(let parseError): fail(parseError.status, parseError.description)
        case .tooLarge(let limit):
            fail(.contentTooLarge, "the body exceeds this endpoint's limit of \(limit) bytes; send a smaller body")
        case .storage(let path, let code):
            // The client learns only the request id; the path and the system's reason stay in the log.
            let id = RequestIDMiddleware.makeID()
            core.log.message("error: request \(id): cannot spool a request body to \(path): "
                + "\(String(cString: strerror(code))) (errno \(code)); check the temporary directory and free space")
            fail(.internalServerError, "request \(id) failed; see the server log", requestID: id)
        }
    }

    // MARK: Closing

    func beginLingeringClose() {
        phase = .lingering
        shutdown(fd, Int32(SHUT_WR))
        lingerDeadline = loop.now &+ core.configuration.timeouts.linger.nanoseconds
        input.clear()
        input.releaseIfEmpty()
        canRead = true
        discardInput()
    }

    func close() {
        guard !closed else { return }
        closed = true
        if let hook = finishHook {
            finishHook = nil
            hook(.abandoned)
        }
        _ = systemClose(fd)
        loop.remove(self)
        core.release(admission, peer: peer)
        if case .body(let reader) = phase { reader.discard() }
        outbound.removeAll()
        handlerTask?.cancel()
        handlerTask = nil
        streamTask?.cancel()
        streamTask = nil
        if let continuation = streamContinuation {
            streamContinuation = nil
            continuation.resume(throwing: ConnectionClosedError())
        }
    }
}

/// Thrown to a streaming body writer when the client has gone away.
public struct ConnectionClosedError: Error, CustomStringConvertible {
    /// Explains the failure.
    public var description: String { "the client closed the connection before the response was complete" }
}

@inline(__always) func systemClose(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(fd)
    #else
    Darwin.close(fd)
    #endif
}
