import Foundation
import Testing
import TestSupport
@testable import BetaServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An in-process server on a free loopback port.
struct TestServer {
    let server: HTTPServer
    let port: Int
    let host: String

    init(router: Router, host: String = "127.0.0.1", configure: (inout ServerConfiguration) -> Void = { _ in },
         middleware: [any Middleware] = [], log: ServerLog = .discarding) throws {
        var configuration = ServerConfiguration()
        configuration.listen = [ListenAddress(host: host, port: 0)]
        configuration.eventLoops = 2
        configure(&configuration)
        server = try HTTPServer(configuration: configuration, router: router, middleware: middleware, log: log)
        let bound = try server.start()
        port = bound[0].port
        self.host = host
    }

    var base: String { host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)" }

    func stop() async {
        server.shutdown(gracePeriod: .seconds(5))
        await server.waitUntilStopped()
    }
}

/// Locates the BetaServerHost executable built next to the test bundle.
enum HostExecutable {
    static var url: URL? {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<5 {
            let candidate = directory.appendingPathComponent("BetaServerHost")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return nil
    }
}
