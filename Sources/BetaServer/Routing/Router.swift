/// Matches method and path to handlers. Patterns use `:name` for one segment and
/// `*name` (last) for the remainder: `/apps/:bundle/builds/*file`.
///
/// Literal segments win over parameters, parameters over wildcards, regardless
/// of registration order. Registering GET also answers HEAD.
public struct Router: Sendable, RouteRegistering {
    struct Route: Sendable {
        var method: HTTPMethod
        var pattern: String
        var segments: [Segment]
        var options: RouteOptions
        var handler: Handler
    }

    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case wildcard(String)

        var rank: Int {
            switch self {
            case .literal: 0
            case .parameter: 1
            case .wildcard: 2
            }
        }
    }

    /// The outcome of resolving a request.
    enum Resolution {
        case matched(Route, RouteParameters)
        case methodNotAllowed(allow: [String])
        case notFound
        case malformedPath
    }

    private(set) var routes: [Route] = []

    /// Answers requests no route matches (the default is a plain-text 404). An application sets its
    /// own so that every missing page, including an unknown secret link, looks the same.
    public var notFound: Handler?

    /// Creates a router; with `healthCheck` it answers `GET /healthz` with 200 `ok`.
    public init(healthCheck: Bool = true) {
        if healthCheck {
            get("/healthz", options: RouteOptions(execution: .eventLoop)) { _, _ in .text("ok\n") }
        }
    }

    /// Registers `handler` for `method` on `pattern`.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, options: RouteOptions = RouteOptions(),
                            _ handler: @escaping Handler) {
        let segments = Router.compile(pattern)
        routes.removeAll { $0.method == method && $0.segments == segments }
        routes.append(Route(method: method, pattern: pattern, segments: segments, options: options, handler: handler))
        routes.sort { Router.isMoreSpecific($0.segments, than: $1.segments) }
    }

    func resolve(method: HTTPMethod, path: String) -> Resolution {
        guard path.hasPrefix("/") else { return method == .options && path == "*" ? .methodNotAllowed(allow: allMethods) : .notFound }
        var decoded: [String] = []
        for raw in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst() {
            guard let segment = PercentDecoding.decodeStrict(String(decoding: raw, as: UTF8.self)) else {
                return .malformedPath
            }
            decoded.append(segment)
        }
        var allowed: [String] = []
        for route in routes {
            guard let parameters = Router.match(route.segments, decoded) else { continue }
            if route.method == method || (method == .head && route.method == .get) {
                return .matched(route, parameters)
            }
            allowed.append(route.method.rawValue)
            if route.method == .get { allowed.append("HEAD") }
        }
        if allowed.isEmpty { return .notFound }
        allowed.append("OPTIONS")
        var seen = Set<String>()
        return .methodNotAllowed(allow: allowed.filter { seen.insert($0).inserted })
    }

    private var allMethods: [String] {
        var seen = Set<String>()
        var result: [String] = []
        for route in routes where seen.insert(route.method.rawValue).inserted { result.append(route.method.rawValue) }
        if seen.contains("GET") { result.append("HEAD") }
        result.append("OPTIONS")
        return result
    }

    static func compile(_ pattern: String) -> [Segment] {
        pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { part in
            if part.hasPrefix(":") { return .parameter(String(part.dropFirst())) }
            if part.hasPrefix("*") { return .wildcard(String(part.dropFirst())) }
            return .literal(String(part))
        }
    }

    static func match(_ pattern: [Segment], _ path: [String]) -> RouteParameters? {
        var parameters = RouteParameters()
        for (index, segment) in pattern.enumerated() {
            switch segment {
            case .literal(let literal):
                guard index < path.count, path[index] == literal else { return nil }
            case .parameter(let name):
                guard index < path.count, !path[index].isEmpty else { return nil }
                parameters[name] = path[index]
            case .wildcard(let name):
                guard index <= path.count else { return nil }
                parameters[name] = path[index...].joined(separator: "/")
                return parameters
            }
        }
        return pattern.count == path.count ? parameters : nil
    }

    static func isMoreSpecific(_ a: [Segment], than b: [Segment]) -> Bool {
        for (left, right) in zip(a, b) where left.rank != right.rank { return left.rank < right.rank }
        return a.count > b.count
    }
}

/// Per-route settings.
public struct RouteOptions: Sendable {
    /// Where the handler runs.
    public enum Execution: Sendable {
        /// On Swift's global concurrent executor: the default, safe for any handler.
        case concurrent
        /// On the connection's event loop thread: for short, non-blocking handlers
        /// (health checks, static files, in-memory pages); avoids a thread hop per request.
        case eventLoop
    }

    /// What happens to a body larger than `bodyLimit`.
    public enum OversizedBody: Sendable, Equatable {
        /// Answer 413 and close the connection without running the handler: the default.
        case reject
        /// Keep the first `bodyLimit` bytes, read and discard the rest (up to `drainLimit` bytes in all;
        /// 413 beyond), then run the handler with `Request.bodyExceededLimit` set. For clients that
        /// take any answer but the application's own as a failure: iOS's enrolment, for one, treats
        /// everything but its redirect as an invalid profile.
        case truncate(drainLimit: Int64)
    }

    /// Largest body accepted (413 beyond); nil uses `HTTPLimits.bodyBytes`.
    public var bodyLimit: Int64?
    /// Where the handler runs.
    public var execution: Execution
    /// What happens to a body larger than `bodyLimit`.
    public var oversizedBody: OversizedBody
    /// Decides from the request head alone, before any of the body is read, whether to take the
    /// request: a response refuses it. The refusal is sent as it is (no middleware runs), no
    /// `100 Continue` goes out, the body is never read and the connection closes after it. Routes
    /// that take large uploads use it so a client without credentials cannot make the server
    /// spool gigabytes first. It runs on the event loop: keep it quick and non-blocking (check a
    /// header against data in memory); the handler still does the full check.
    public var headCheck: (@Sendable (Request) -> Response?)?

    /// Creates route options.
    public init(bodyLimit: Int64? = nil, execution: Execution = .concurrent, oversizedBody: OversizedBody = .reject,
                headCheck: (@Sendable (Request) -> Response?)? = nil) {
        self.bodyLimit = bodyLimit
        self.execution = execution
        self.oversizedBody = oversizedBody
        self.headCheck = headCheck
    }
}
