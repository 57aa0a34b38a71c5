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
            fail(.badRequest, Router.malformedPathMessage)
            return
        }
        if let refusal = Router.headRefusal(resolution, request) {
            refuse(refusal, request: request, bodyFollows: head.framing != .none)
            return
        }
        pendingResolution = resolution
        pendingRequest = request
        let (limit, drainLimit) = Router.bodyLimits(resolution, limits: core.configuration.limits)
        switch head.framing {
        case .none:
            dispatch(request)
        case .length(let length) where length > (drainLimit ?? limit):
            fail(.contentTooLarge, "the body of \(length) bytes exceeds this endpoint's limit of \(drainLimit ?? limit) bytes")
        case .length, .chunked:
            if head.expectsContinue && input.readable == 0 {
                outbound.append(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                flush()
            }
            phase = .body(BodyReader(framing: head.framing, limit: limit, drainLimit: drainLimit, limits: core.configuration.limits,
                                     directory: core.configuration.temporaryDirectory, spoolPrefix: core.configuration.spoolFilePrefix))
            bodyStartedAt = loop.now
            rateWindowStart = loop.now
            rateWindowBytes = 0
        }
    }

    func dispatch(_ request: Request) {
        phase = .handling
        var request = request
        let (endpoint, execution) = core.router.endpoint(for: pendingResolution, request: &request)
        pendingRequest = nil
        pendingResolution = nil
        let context = Context(log: core.log, configuration: core.configuration, endpoint: endpoint)
        let finalRequest = request
        let chain = core.chain
        let loop = self.loop
        let bound = LoopBound(value: self)
        let generation = self.generation
        let log = core.log
        let work: @Sendable () async -> Void = {
            let response: Response
            do {
                response = try await chain(finalRequest, context)
            } catch {
                // ErrorMiddleware answers every error it sees; this is only what escaped it.
                log.message("error: \(finalRequest.method) \(finalRequest.path) failed outside the error middleware: \(error)")
                response = .text("500 Internal Server Error: see the server log\n", status: .internalServerError)
            }
            loop.run {
                loop.taskFinished()
                bound.value.handlerFinished(response, generation: generation)
            }
        }
        handlerTask = Connection.spawn(work, execution: execution, loop: loop)
    }

    /// Starts `work` as a task the loop counts until it reports back, so shutdown can wait for it.
    static func spawn(_ work: @escaping @Sendable () async -> Void, execution: RouteOptions.Execution,
                      loop: EventLoop) -> Task<Void, Never> {
        loop.taskStarted()
        if execution == .eventLoop, #available(macOS 15.0, *), let executor = loop.executor {
            return Task(executorPreference: executor) { await work() }
        }
        return Task { await work() }
    }

    /// Answers with an error status and closes, without running the handler chain; `requestID`
    /// is sent as `X-Request-Id` so the client can quote it.
    func fail(_ status: HTTPStatus, _ message: String, requestID: String? = nil) {
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
        var response = Response.text("\(status.code) \(status.reason): \(message)\n", status: status)
        if let requestID { response.headers.set("X-Request-Id", requestID) }
        writeResponse(response)
    }

    /// Answers a request its route's head check refused, without reading its body or running the
    /// handler chain. When a body follows, the connection closes after the answer (the body is
    /// read and dropped while lingering), since the next request could not be found after it.
    func refuse(_ response: Response, request: Request, bodyFollows: Bool) {
        phase = .handling
        pendingRequest = nil
        pendingResolution = nil
        if bodyFollows { keepAlive = false }
        if let access = core.log.access {
            // The middleware never sees this request, so its access log line is written here.
            let line = "\(request.method) \(core.log.redactTarget(request.target)) \(request.version)"
            access("\(peer) - - [\(HTTPDate.commonLog(time(nil)))] \"\(line)\" \(response.status.code) - \"-\" \"-\"")
        }
        writeResponse(response)
    }

    /// Sends 503 to a connection accepted beyond the server's or its client's connection cap.
    func reject(_ admission: Admission) {
        phase = .handling
        keepAlive = false
        let reason = switch admission {
        case .clientFull:
            "too many connections from your address (the limit is \(core.configuration.maxConnectionsPerIP)); "
                + "close some or retry shortly"
        default:
            "the server is at its connection limit; retry shortly"
        }
        var response = Response.text("503 Service Unavailable: \(reason)\n", status: .serviceUnavailable)
        response.headers.set("Retry-After", "5")
        writeResponse(response)
    }

    func drain() {
        keepAlive = false
        if case .head = phase, input.readable == 0 { close() }
    }
}
