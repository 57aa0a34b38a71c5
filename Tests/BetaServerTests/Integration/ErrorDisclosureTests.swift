import Foundation
import Testing
@testable import BetaServer
import TestSupport

/// Server-side failures never show the client a path or the system's error text: the client gets
/// the status and a request id, and the log ties that id to the details.
@Suite(.serialized) struct ErrorDisclosureTests {
    struct Answer {
        var head: String
        var body: String
        var requestID: String?
    }

    static func exchange(_ request: [UInt8], port: Int) async throws -> Answer {
        try await blocking {
            let client = try RawClient(port: port)
            client.send(request)
            let text = String(decoding: client.readToEnd().bytes, as: UTF8.self)
            let parts = text.components(separatedBy: "\r\n\r\n")
            let head = parts.first ?? ""
            let id = head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("x-request-id: ") }
                .map { String($0.dropFirst("x-request-id: ".count)) }
            return Answer(head: head, body: parts.dropFirst().joined(separator: "\r\n\r\n"), requestID: id)
        }
    }

    static func post(_ path: String, size: Int) -> [UInt8] {
        Array("POST \(path) HTTP/1.1\r\nHost: h\r\nContent-Length: \(size)\r\nConnection: close\r\n\r\n".utf8)
            + [UInt8](repeating: 0x61, count: size)
    }

    struct GatewayFailure: HTTPResponseError, CustomStringConvertible {
        var httpStatus: HTTPStatus { HTTPStatus(code: 502) }
        var description: String { "the upstream at /srv/betactl/upstream.sock refused the connection (errno 111)" }
    }

    /// Checks one failure: the status, no path or errno in the body, the id in the body and the
    /// header, and a log line with the id and `detail`.
    static func expectHidden(_ answer: Answer, status: Int, detail: String, log: LockedLines,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(answer.head.hasPrefix("HTTP/1.1 \(status) "), "got: \(answer.head)", sourceLocation: sourceLocation)
        #expect(!answer.body.contains("/"), "a path reached the client: \(answer.body)", sourceLocation: sourceLocation)
        #expect(!answer.body.contains("errno"), "system error text reached the client: \(answer.body)", sourceLocation: sourceLocation)
        guard let id = answer.requestID else {
            Issue.record("no X-Request-Id in \(answer.head)", sourceLocation: sourceLocation)
            return
        }
        #expect(answer.body == "\(status) \(HTTPStatus.standardReason(status)): request \(id) failed; see the server log\n",
                sourceLocation: sourceLocation)
        #expect(log.lines.contains { $0.contains(id) && $0.contains(detail) },
                "no log line ties \(id) to \(detail): \(log.lines)", sourceLocation: sourceLocation)
    }

    @Test func fileResponderAndRequestBodyFailuresShowOnlyTheRequestID() async throws {
        let scratch = try TemporaryDirectory("betaserver-errors")
        let loop = scratch.child("loop")
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        let lines = LockedLines()
        // On the loop threads: a full test run keeps the shared pool busy with CPU-bound suites.
        let onLoop = RouteOptions(bodyLimit: 1 << 20, execution: .eventLoop)
        var router = Router()
        router.get("/loop", options: onLoop) { request, _ in try FileResponder().respond(to: request, path: loop) }
        router.post("/move", options: onLoop) { request, _ in
            guard case .file(let file) = request.body else { return .text("not spooled", status: .badRequest) }
            try file.move(to: scratch.child("missing/upload"))
            return .text("moved")
        }
        router.post("/read", options: onLoop) { request, _ in
            guard case .file(let file) = request.body else { return .text("not spooled", status: .badRequest) }
            unlink(file.path)
            return .bytes(try request.body.bytes(), contentType: "application/octet-stream")
        }
        router.get("/secret", options: onLoop) { _, _ in throw HTTPError(.internalServerError, "the database at /var/lib/secret.sqlite is locked") }
        router.get("/gateway", options: onLoop) { _, _ in throw GatewayFailure() }
        let server = try TestServer(router: router, configure: { configuration in
            configuration.temporaryDirectory = scratch.path
            configuration.limits.bodyMemoryBytes = 1024
        }, log: ServerLog(message: { lines.append($0) }, access: nil))

        let opened = try await Self.exchange(Array("GET /loop HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n".utf8), port: server.port)
        Self.expectHidden(opened, status: 500, detail: loop, log: lines)
        let moved = try await Self.exchange(Self.post("/move", size: 4096), port: server.port)
        Self.expectHidden(moved, status: 500, detail: scratch.child("missing/upload"), log: lines)
        let read = try await Self.exchange(Self.post("/read", size: 4096), port: server.port)
        Self.expectHidden(read, status: 500, detail: scratch.path + "/" + BodySpool.defaultPrefix, log: lines)
        let secret = try await Self.exchange(Array("GET /secret HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n".utf8), port: server.port)
        Self.expectHidden(secret, status: 500, detail: "/var/lib/secret.sqlite", log: lines)
        let gateway = try await Self.exchange(Array("GET /gateway HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n".utf8), port: server.port)
        Self.expectHidden(gateway, status: 502, detail: "/srv/betactl/upstream.sock", log: lines)
        await server.stop()
    }

    @Test func aBodyThatCannotBeSpooledShowsOnlyTheRequestID() async throws {
        let scratch = try TemporaryDirectory("betaserver-errors")
        let missing = scratch.child("gone")
        let lines = LockedLines()
        var router = Router()
        router.post("/upload", options: RouteOptions(bodyLimit: 1 << 20, execution: .eventLoop)) { request, _ in .text("\(request.body.count)") }
        let server = try TestServer(router: router, configure: { configuration in
            configuration.temporaryDirectory = missing
            configuration.limits.bodyMemoryBytes = 1024
        }, log: ServerLog(message: { lines.append($0) }, access: nil))
        let answer = try await Self.exchange(Self.post("/upload", size: 8192), port: server.port)
        Self.expectHidden(answer, status: 500, detail: missing + "/" + BodySpool.defaultPrefix, log: lines)
        #expect(lines.lines.contains { $0.contains("No such file or directory") })
        await server.stop()
    }

    @Test func clientErrorsKeepTheirExplanation() async throws {
        var router = Router()
        router.get("/teapot", options: RouteOptions(execution: .eventLoop)) { _, _ in throw HTTPError(.badRequest, "the tea must be hot; heat it to 90 °C") }
        let server = try TestServer(router: router)
        let answer = try await Self.exchange(Array("GET /teapot HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n".utf8), port: server.port)
        #expect(answer.head.hasPrefix("HTTP/1.1 400 "))
        #expect(answer.body == "400 Bad Request: the tea must be hot; heat it to 90 °C\n")
        await server.stop()
    }
}
