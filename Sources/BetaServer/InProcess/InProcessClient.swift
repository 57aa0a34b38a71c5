import Synchronization
import PosixIO

/// Sends requests through a router and its middleware the way a connection does, with no socket,
/// event loop or thread of its own: trusted-proxy headers, route resolution, the route's head
/// check and body limit, spooling of large bodies to a temporary file, the standard middleware
/// (request id, access log, error mapping, compression), `HEAD` and the header fields the engine
/// owns. Streamed and file bodies are collected into bytes.
///
/// It is for testing applications as Hummingbird's `app.test(.router)` does: everything above the
/// socket is the server's own code. What it cannot show — framing, keep-alive, timeouts, slow or
/// hostile clients, connection limits — needs a real `HTTPServer`.
///
/// ```swift
/// let client = try InProcessClient(router: router)
/// let response = await client.execute(.get, "/hello/ann")
/// #expect(response.status == .ok)
/// ```
public struct InProcessClient: Sendable {
    /// The settings requests are handled with (limits, trusted proxies, the spool directory).
    public let configuration: ServerConfiguration
    private let router: Router
    private let chain: Handler
    private let trusted: TrustedProxies
    private let log: ServerLog

    /// Creates a client for `router` with `middleware` inside the standard layers, as
    /// `HTTPServer` runs them.
    public init(configuration: ServerConfiguration = ServerConfiguration(), router: Router,
                middleware: [any Middleware] = [], log: ServerLog = .discarding) throws(ServerError) {
        self.configuration = configuration
        self.router = router
        self.log = log
        trusted = try TrustedProxies(configuration.trustedProxies)
        chain = MiddlewareChain.build(HTTPServer.standardMiddleware(trusted: trusted, log: log) + middleware)
    }

    /// Handles one request and returns the response the client would have read.
    public func execute(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
                        peerAddress: String = "127.0.0.1") async -> InProcessResponse {
        var request = Request(method: method, target: target, headers: headers, peerAddress: peerAddress)
        ForwardedHeaders.apply(to: &request, trusted: trusted)
        let resolution = router.resolve(method: method, path: request.path)
        if case .malformedPath = resolution {
            return await finish(failure(.badRequest, Router.malformedPathMessage), method: method)
        }
        if let refusal = Router.headRefusal(resolution, request) { return await finish(refusal, method: method) }
        let (limit, drainLimit) = Router.bodyLimits(resolution, limits: configuration.limits)
        let length = Int64(body.count)
        if length > (drainLimit ?? limit) {
            return await finish(failure(.contentTooLarge, "the body of \(length) bytes exceeds this endpoint's limit of \(drainLimit ?? limit) bytes"),
                                method: method)
        }
        var kept = body
        if length > limit {
            kept = Array(body.prefix(Int(limit)))
            request.bodyExceededLimit = true
        }
        do {
            request.body = try spool(kept)
        } catch {
            return await finish(failure(.internalServerError, "cannot store the request body: \(error)"), method: method)
        }
        let (endpoint, _) = router.endpoint(for: resolution, request: &request)
        let context = Context(log: log, configuration: configuration, endpoint: endpoint)
        let response: Response
        do {
            response = try await chain(request, context)
        } catch {
            response = .text("500 Internal Server Error: see the server log\n", status: .internalServerError)
        }
        return await finish(response, method: method)
    }

    /// The body as a connection hands it over: in memory while small, else in a temporary file.
    private func spool(_ bytes: [UInt8]) throws(HTTPError) -> RequestBody {
        if bytes.isEmpty { return .empty }
        if bytes.count <= configuration.limits.bodyMemoryBytes { return .bytes(bytes) }
        let fd: FileDescriptor
        do { fd = try FileSystem.makeTemporaryFile(template: BodySpool.template(in: configuration.temporaryDirectory)) } catch {
            throw HTTPError(.internalServerError, "cannot create a spool file in \(configuration.temporaryDirectory): errno \(error.errno)")
        }
        defer { try? fd.close() }
        let path = fd.path ?? ""
        let file = TemporaryFile(path: path, size: Int64(bytes.count))
        do { try fd.writeAll(bytes) } catch {
            throw HTTPError(.internalServerError, "cannot write the spool file \(path): errno \(error.errno)")
        }
        return .file(file)
    }

    /// An answer the engine gives without running the handler chain.
    private func failure(_ status: HTTPStatus, _ message: String) -> Response {
        .text("\(status.code) \(status.reason): \(message)\n", status: status)
    }

    /// Applies the engine's rules to `response` and collects its body.
    private func finish(_ response: Response, method: HTTPMethod) async -> InProcessResponse {
        var headers = HTTPHeaders()
        for field in response.headers where !Self.engineFields.contains(where: { HTTPHeaders.namesEqual($0, field.name) }) {
            headers.add(field.name, field.value)
        }
        let status = response.status
        if let length = response.body.knownLength, !status.forbidsBody, status.code != 304 {
            headers.add("Content-Length", String(length))
        }
        var body: [UInt8] = []
        var outcome = ResponseOutcome.delivered
        if method != .head && !status.forbidsBody {
            do {
                body = try await Self.collect(response.body)
            } catch {
                outcome = .abandoned
            }
        }
        response.onFinish?(outcome)
        return InProcessResponse(status: status, headers: headers, body: body)
    }

    private static let engineFields = ["Content-Length", "Transfer-Encoding", "Connection", "Date", "Keep-Alive", "Server"]

    /// The bytes of a response body, whichever form it takes.
    static func collect(_ body: ResponseBody) async throws -> [UInt8] {
        switch body {
        case .empty: return []
        case .bytes(let bytes): return bytes
        case .file(let file):
            var result: [UInt8] = []
            for part in file.parts {
                switch part {
                case .bytes(let bytes): result += bytes
                case .region(let open, let offset, let length): result += try read(open, offset: offset, length: length)
                }
            }
            return result
        case .stream(let producer):
            let collected = Mutex<[UInt8]>([])
            try await producer(BodyWriter { bytes in collected.withLock { $0 += bytes } })
            return collected.withLock { $0 }
        }
    }

    private static func read(_ file: OpenFile, offset: Int64, length: Int64) throws(HTTPError) -> [UInt8] {
        let result: [UInt8]
        do { result = try FileDescriptor(rawValue: file.descriptor, path: file.path).read(count: Int(length), at: offset) } catch {
            throw HTTPError(.internalServerError, "cannot read \(file.path): errno \(error.errno)")
        }
        guard result.count == Int(length) else { throw HTTPError(.internalServerError, "cannot read \(file.path): errno 0") }
        return result
    }
}

/// What an `InProcessClient` request answered: the status, the header fields a client would see
/// (without `Date` and `Server`) and the whole body.
public struct InProcessResponse: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// The header fields, with `Content-Length` as the engine would send it.
    public var headers: HTTPHeaders
    /// The body (empty for `HEAD`).
    public var body: [UInt8]

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}
