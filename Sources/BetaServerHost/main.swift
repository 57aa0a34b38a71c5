// BetaServerHost: a minimal server over BetaServer alone, for the engine's process tests and
// benchmarks. It may import BetaServer and the system libraries, nothing of betactl.

import BetaServer
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// A small host for the HTTP engine used by integration tests and bench/http: it serves a
// directory, a few fixed routes, and shuts down gracefully on SIGTERM like `betactl serve`.
//
// Usage: BetaServerHost [--listen HOST:PORT]... [--root DIR] [--port-file FILE] [--grace SECONDS]
//                       [--loops N] [--max-connections N] [--max-connections-per-ip N] [--header-timeout SECONDS]
//                       [--hold-descriptors N] [--access-log]
//
// --hold-descriptors opens N descriptors at start-up and keeps them, standing for everything else
// in a real process that uses descriptors, so tests can run the engine out of them.

var configuration = ServerConfiguration()
configuration.listen = []
var root: String?
var portFile: String?
var accessLog = false
var held: [Int32] = []
var arguments = CommandLine.arguments.dropFirst().makeIterator()

func printError(_ message: String) { ServerLog.writeLine(message, to: 2) }

@MainActor func value(_ flag: String) -> String {
    guard let next = arguments.next() else {
        printError("missing value after \(flag)")
        exit(64)
    }
    return next
}

do {
    while let argument = arguments.next() {
        switch argument {
        case "--listen": configuration.listen.append(try ListenAddress(parsing: value(argument)))
        case "--root": root = value(argument)
        case "--port-file": portFile = value(argument)
        case "--grace": configuration.timeouts.shutdownGrace = .seconds(Int(value(argument)) ?? 30)
        case "--loops": configuration.eventLoops = Int(value(argument)) ?? configuration.eventLoops
        case "--max-connections": configuration.maxConnections = Int(value(argument)) ?? configuration.maxConnections
        case "--header-timeout": configuration.timeouts.header = .seconds(Int(value(argument)) ?? 10)
        case "--max-connections-per-ip":
            configuration.maxConnectionsPerIP = Int(value(argument)) ?? configuration.maxConnectionsPerIP
        case "--hold-descriptors":
            for _ in 0..<(Int(value(argument)) ?? 0) {
                let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
                if fd >= 0 { held.append(fd) }
            }
        case "--access-log": accessLog = true
        default:
            printError("unknown argument \(argument)")
            exit(64)
        }
    }
    if configuration.listen.isEmpty { configuration.listen = [ListenAddress(host: "127.0.0.1", port: 8080)] }

    var router = Router()
    let small = Array("Hello, world! This is a small in-memory response.\n".utf8)
    router.get("/hello", options: RouteOptions(execution: .eventLoop)) { _, _ in
        .bytes(small, contentType: "text/plain")
    }
    router.get("/hello-pool") { _, _ in .bytes(small, contentType: "text/plain") }
    router.post("/upload", options: RouteOptions(bodyLimit: 256 * 1024 * 1024)) { request, _ in
        var checksum: UInt32 = 0
        for byte in try request.body.bytes(limit: 256 * 1024 * 1024) { checksum = checksum &* 31 &+ UInt32(byte) }
        let storage = if case .file = request.body { "file" } else { "memory" }
        return .text("\(request.body.count) \(checksum) \(storage)\n")
    }
    router.get("/stream/:count") { request, _ in
        let count = Int(request.parameters["count"] ?? "") ?? 0
        return Response(headers: ["Content-Type": "text/plain"], body: .stream { writer in
            for index in 0..<count { try await writer.write("line \(index)\n") }
        })
    }
    router.get("/whoami") { request, _ in
        .text("\(request.scheme) \(request.host ?? "-") \(request.clientAddress)\n")
    }
    if let root {
        router.get("/files/*path", options: RouteOptions(execution: .eventLoop), StaticFiles(root: root).handler)
    }

    let log = accessLog ? ServerLog.standardError : ServerLog.messagesOnly
    let server = try HTTPServer(configuration: configuration, router: router, log: log)
    try ServerSignals.onTermination { name in
        log.message("\(name): draining")
        server.shutdown()
    }
    let bound = try server.start()
    for address in bound { log.message("listening on http://\(address)") }
    if let portFile {
        try bound.map { String($0.port) }.joined(separator: "\n").write(toFile: portFile, atomically: true, encoding: .utf8)
    }
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await server.waitUntilStopped()
        done.signal()
    }
    done.wait()
    for fd in held { close(fd) }
    log.message("stopped")
} catch {
    printError("error: \(error)")
    exit(1)
}
