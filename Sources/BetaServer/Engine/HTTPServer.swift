#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemShim
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// The HTTP/1.1 server: listening sockets, one event loop thread per core, and the handler chain.
///
/// ```swift
/// var router = Router()
/// router.get("/hello/:name") { request, _ in .text("hi \(request.parameters["name"] ?? "")") }
/// let server = try HTTPServer(configuration: configuration, router: router)
/// let addresses = try server.start()
/// await server.waitUntilStopped()
/// ```
public final class HTTPServer: Sendable {
    private struct State {
        var loops: [EventLoop] = []
        var listeners: [Int32] = []
        var bound: [ListenAddress] = []
        var running = 0
        var started = false
        var shutdownRequested: UInt64?
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The configuration the server runs with.
    public let configuration: ServerConfiguration
    private let router: Router
    private let middleware: [any Middleware]
    private let log: ServerLog
    private let trusted: TrustedProxies
    private let state = Mutex(State())

    /// Creates a server. `middleware` runs inside the standard layers (request id, access log,
    /// error mapping, compression), so auth hooks see the request id and their errors are mapped.
    public init(configuration: ServerConfiguration, router: Router, middleware: [any Middleware] = [],
                log: ServerLog = .standardError) throws(ServerError) {
        self.configuration = configuration
        self.router = router
        self.middleware = middleware
        self.log = log
        self.trusted = try TrustedProxies(configuration.trustedProxies)
    }

    /// The standard middleware stack, outermost first.
    public static func standardMiddleware(trusted: TrustedProxies, log: ServerLog) -> [any Middleware] {
        var layers: [any Middleware] = [RequestIDMiddleware(trusted: trusted)]
        if let access = log.access { layers.append(AccessLogMiddleware(sink: access, redact: log.redactTarget)) }
        layers.append(ErrorMiddleware())
        layers.append(CompressionMiddleware())
        return layers
    }

    /// The addresses actually bound (with real ports when 0 was asked for).
    public var boundAddresses: [ListenAddress] { state.withLock { $0.bound } }

    /// Binds every listen address and starts the event loops; returns the bound addresses.
    @discardableResult
    public func start() throws(ServerError) -> [ListenAddress] {
        shim_ignore_sigpipe()
        let budget = DescriptorBudget.raise()
        if budget.connectionCapacity < configuration.maxConnections {
            log.message("note: the open-file limit is \(budget.limit) (ulimit -n), so at most \(budget.connectionCapacity) "
                + "connections are served at once instead of \(configuration.maxConnections); raise the limit to allow more")
        }
        let swept = BodySpool.sweep(directory: configuration.temporaryDirectory, prefix: configuration.spoolFilePrefix)
        if swept > 0 {
            log.message("removed \(swept) request body spool file\(swept == 1 ? "" : "s") that a stopped server left in "
                + configuration.temporaryDirectory)
        }
        var listeners: [Int32] = []
        var bound: [ListenAddress] = []
        do {
            for address in configuration.listen {
                let (fd, port) = try HTTPServer.listen(on: address, backlog: configuration.backlog)
                listeners.append(fd)
                bound.append(ListenAddress(host: address.host, port: port))
            }
        } catch {
            for fd in listeners { close(fd) }
            throw error
        }
        let chain = MiddlewareChain.build(HTTPServer.standardMiddleware(trusted: trusted, log: log) + middleware)
        let core = ServerCore(configuration: configuration, router: router, chain: chain, trusted: trusted, log: log,
                              budget: budget) {
            [weak self] in self?.loopFinished()
        }
        var loops: [EventLoop] = []
        do {
            for index in 0..<max(1, configuration.eventLoops) {
                let loop = try EventLoop(index: index, core: core)
                for fd in listeners { try loop.addListener(fd) }
                loops.append(loop)
            }
        } catch {
            for fd in listeners { close(fd) }
            throw error
        }
        for loop in loops { loop.siblings = loops }
        let earlyShutdown = state.withLock { state -> UInt64? in
            state.loops = loops
            state.listeners = listeners
            state.bound = bound
            state.running = loops.count
            state.started = true
            return state.shutdownRequested
        }
        if let deadline = earlyShutdown {
            for loop in loops { loop.run { loop.beginDrain(deadline: deadline) } }
        }
        for (position, loop) in loops.enumerated() {
            do {
                try LoopThread.start(name: "http-loop-\(loop.index)", stackSize: 1 << 20) { loop.runLoop() }
            } catch {
                // Never half-started: the running loops drain and stop, and the loops without a
                // thread run here just long enough to see the drain, close their pollers and count
                // themselves finished, so the listeners close and waitUntilStopped returns.
                shutdown(gracePeriod: .zero)
                for unstarted in loops[position...] { unstarted.runLoop() }
                throw error
            }
        }
        return bound
    }

    /// Stops accepting, closes idle connections, lets in-flight responses finish within `gracePeriod`
    /// (default `timeouts.shutdownGrace`), then closes everything, which cancels the request
    /// handlers still running; `waitUntilStopped` returns once they have finished (or a second
    /// after the deadline for handlers that ignore cancellation).
    public func shutdown(gracePeriod: Duration? = nil) {
        let grace = (gracePeriod ?? configuration.timeouts.shutdownGrace).nanoseconds
        let deadline = Monotonic.now() &+ grace
        // A signal may arrive before start(); remember it so the server stops as soon as it starts.
        let loops = state.withLock { state in
            if !state.started { state.shutdownRequested = deadline }
            return state.loops
        }
        for loop in loops { loop.run { loop.beginDrain(deadline: deadline) } }
    }

    /// Returns once every event loop has finished after `shutdown`.
    public func waitUntilStopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if !state.started || state.running == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func loopFinished() {
        let (waiters, listeners) = state.withLock { state -> ([CheckedContinuation<Void, Never>], [Int32]) in
            state.running -= 1
            guard state.running == 0 else { return ([], []) }
            let waiters = state.waiters
            state.waiters = []
            let listeners = state.listeners
            state.listeners = []
            return (waiters, listeners)
        }
        for fd in listeners { close(fd) }
        for waiter in waiters { waiter.resume() }
    }

    private static func listen(on address: ListenAddress, backlog: Int32) throws(ServerError) -> (Int32, Int) {
        var port: Int32 = 0
        var stage: Int32 = 0
        var code: Int32 = 0
        let fd = address.host.withCString { shim_listen($0, Int32(address.port), backlog, &port, &stage, &code) }
        guard fd < 0 else { return (fd, Int(port)) }
        switch (stage, code) {
        case (SHIM_LISTEN_BAD_ADDRESS, _): throw .invalidListenAddress(address.description)
        case (SHIM_LISTEN_BIND, EADDRINUSE): throw .addressInUse(address)
        case (SHIM_LISTEN_BIND, EACCES): throw .permissionDenied(address)
        case (SHIM_LISTEN_BIND, EADDRNOTAVAIL): throw .addressNotAvailable(address)
        case (SHIM_LISTEN_BIND, _): throw .system(operation: "binding \(address)", errno: code)
        default: throw .system(operation: "listening on \(address)", errno: code)
        }
    }
}
