extension HTTPServer {
    /// Runs a server the way a command does: starts `router` on the configured addresses, logs
    /// where it listens, shuts down gracefully on SIGTERM/SIGINT and returns once every in-flight
    /// response has finished (or the grace period ran out).
    public static func serve(configuration: ServerConfiguration, router: Router, middleware: [any Middleware] = [],
                             log: ServerLog = .standardError,
                             onListening: @escaping @Sendable ([ListenAddress]) -> Void = { _ in }) async throws {
        let server = try HTTPServer(configuration: configuration, router: router, middleware: middleware, log: log)
        // Handlers go in before the sockets open, so a signal can never hit the default (fatal) action.
        try ServerSignals.onTermination { name in
            log.message("\(name): no longer accepting connections; finishing in-flight requests "
                + "(up to \(configuration.timeouts.shutdownGrace))")
            server.shutdown()
        }
        let addresses = try server.start()
        for address in addresses { log.message("listening on http://\(address)") }
        onListening(addresses)
        await server.waitUntilStopped()
        log.message("server stopped")
    }
}
