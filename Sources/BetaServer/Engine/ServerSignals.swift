#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// Turns SIGTERM and SIGINT into a callback (for graceful shutdown) instead of killing the process.
public enum ServerSignals {
    // Dispatch sources are thread-safe but not marked Sendable; they are only kept alive here.
    private final class Retained: @unchecked Sendable {
        let source: any DispatchSourceSignal
        init(_ source: any DispatchSourceSignal) { self.source = source }
    }

    private static let sources = Mutex<[Retained]>([])

    /// Calls `handler` with the signal name each time SIGTERM or SIGINT arrives.
    public static func onTermination(_ handler: @escaping @Sendable (String) -> Void) {
        for (number, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(name) }
            source.resume()
            let retained = Retained(source)
            sources.withLock { $0.append(retained) }
        }
    }
}

/// Entry points for running the server from a command.
public enum BetaServer {
    /// Starts `router` on the configured addresses, logs where it listens, shuts down gracefully on
    /// SIGTERM/SIGINT and returns once every in-flight response has finished (or the grace period ran out).
    public static func serve(configuration: ServerConfiguration, router: Router, middleware: [any Middleware] = [],
                             log: ServerLog = .standardError) async throws {
        let server = try HTTPServer(configuration: configuration, router: router, middleware: middleware, log: log)
        // Handlers go in before the sockets open, so a signal can never hit the default (fatal) action.
        ServerSignals.onTermination { name in
            log.message("\(name): no longer accepting connections; finishing in-flight requests "
                + "(up to \(configuration.timeouts.shutdownGrace))")
            server.shutdown()
        }
        let addresses = try server.start()
        for address in addresses { log.message("listening on http://\(address)") }
        await server.waitUntilStopped()
        log.message("server stopped")
    }
}
