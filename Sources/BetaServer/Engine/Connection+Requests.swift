#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Connection {

    func begin(_ head: RequestHead) {
        generation += 1
        requestVersion = head.version
        requestIsHead = head.method == .head
        keepAlive = head.keepAlive && !loop.draining
        var request = Request(method: head.method, target: head.target, version: head.version,
                              headers: head.headers, peerAddress: peer)
        ForwardedHeaders.apply(to: &request, trusted: core.trusted)
        let resolution = core.router.resolve(method: head.method, path: request.path)
        if case .malformedPath = resolution {
            fail(.badRequest, "the path contains a malformed percent-escape; encode '%' as %25")
            return
        }
        pendingResolution = resolution
        pendingRequest = request
        var limit: Int64
        switch resolution {
        case .matched(let route, _): limit = route.options.bodyLimit ?? core.configuration.limits.bodyBytes
        default: limit = min(core.configuration.limits.bodyBytes, 64 * 1024)
        }
        switch head.framing {
        case .none:
            dispatch(request)
        case .length(let length) where length > limit:
            fail(.contentTooLarge, "the body of \(length) bytes exceeds this endpoint's limit of \(limit) bytes")
        case .length, .chunked:
            if head.expectsContinue && input.readable == 0 {
                outbound.append(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                flush()
            }
            phase = .body(BodyReader(framing: head.framing, limit: limit, limits: core.configuration.limits,
                                     directory: core.configuration.temporaryDirectory))
            rateWindowStart = loop.now
            rateWindowBytes = 0
        }
    }

    func dispatch(_ request: Request) {
        phase = .handling
        var request = request
        let endpoint: Handler
        var execution = RouteOptions.Execution.eventLoop
        switch pendingResolution {
        case .matched(let route, let parameters):
            request.parameters = parameters
            endpoint = route.handler
            execution = route.options.execution
        case .methodNotAllowed(let allow):
            let allowValue = allow.joined(separator: ", ")
            if request.method == .options {
                endpoint = { _, _ in Response(status: .noContent, headers: ["Allow": allowValue]) }
            } else {
                endpoint = { request, _ in
                    throw HTTPError(.methodNotAllowed, "\(request.method) is not allowed here; use \(allowValue)",
                                    headers: ["Allow": allowValue])
                }
            }
        case .notFound, .malformedPath, nil:
            endpoint = core.router.notFound ?? { _, _ in throw HTTPError(.notFound, "nothing here; check the address") }
        }
        pendingRequest = nil
        pendingResolution = nil
        let context = Context(log: core.log, configuration: core.configuration, endpoint: endpoint)
        let finalRequest = request
        let chain = core.chain
        let loop = self.loop
        let bound = LoopBound(value: self)
        let generation = self.generation
        let work: @Sendable () async -> Void = {
            let response: Response
            do {
                response = try await chain(finalRequest, context)
            } catch {
                response = .text("500 Internal Server Error\n", status: .internalServerError)
            }
            loop.run { bound.value.handlerFinished(response, generation: generation) }
        }
        Connection.spawn(work, execution: execution, loop: loop)
    }

    static func spawn(_ work: @escaping @Sendable () async -> Void, execution: RouteOptions.Execution,
                      loop: EventLoop) {
        if execution == .eventLoop, #available(macOS 15.0, *), let executor = loop.executor {
            Task(executorPreference: executor) { await work() }
        } else {
            Task { await work() }
        }
    }

    /// Answers with an error status and closes, without running the handler chain.
    func fail(_ status: HTTPStatus, _ message: String) {
        var requestLine = "-"
        switch phase {
        case .body(let reader):
            reader.discard()
            if let request = pendingRequest {
                requestLine = "\(request.method) \(core.log.redactTarget(request.target)) \(request.version)"
            }
        case .head:
            // Nothing of this request was understood; answer it as a plain HTTP/1.1 GET would be.
            requestIsHead = false
            requestVersion = .http11
        default:
            break
        }
        phase = .handling
        pendingRequest = nil
        keepAlive = false
        generation += 1
        if let access = core.log.access {
            // Rejected requests never reach the middleware, so the access log line is written here.
            access("\(peer) - - [\(HTTPDate.commonLog(time(nil)))] \"\(requestLine)\" \(status.code) - \"-\" \"-\"")
        }
        writeResponse(.text("\(status.code) \(status.reason): \(message)\n", status: status))
    }

    /// Sends 503 to a connection accepted beyond the connection cap.
    func rejectOverCapacity() {
        phase = .handling
        keepAlive = false
        writeResponse(.text("503 Service Unavailable: the server is at its connection limit; retry shortly\n",
                            status: .serviceUnavailable))
    }

    func drain() {
        keepAlive = false
        if case .head = phase, input.readable == 0 { close() }
    }
}
