import Foundation
import Testing
@testable import BetaServer
import TestSupport

/// One client address cannot take every connection: beyond `maxConnectionsPerIP` it gets 503,
/// except a trusted proxy, which carries everyone's connections.
@Suite(.serialized) struct ConnectionLimitTests {
    /// Holds `count` connections, then asks once more, on one thread with no hop through the
    /// concurrency pool in between (see the first test).
    static func holdThenAsk(_ count: Int, port: Int) async throws -> (held: [RawClient], answer: String) {
        try await blocking {
            let clients = try (0..<count).map { _ in try RawClient(port: port) }
            for client in clients { client.send("GET /healthz HTTP/1.1\r\nHost: h\r\n\r\n") }
            for client in clients { _ = client.read(until: "ok\n") }
            let client = try RawClient(port: port)
            client.send("GET /healthz HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
            return (clients, String(decoding: client.readToEnd().bytes, as: UTF8.self))
        }
    }

    @Test func connectionsFromOneAddressBeyondItsCapGet503UntilOneCloses() async throws {
        let server = try TestServer(router: Router()) { $0.maxConnectionsPerIP = 3 }
        let port = server.port
        // All on one thread of its own, with no hop through the concurrency pool between holding
        // the connections and asking again: under the full suite such a hop can last longer than
        // the server's keep-alive timeout, which would close the held connections first.
        let (refused, answer) = try await blocking { () -> (String, String) in
            var held = try (0..<3).map { _ in try RawClient(port: port) }
            for client in held { client.send("GET /healthz HTTP/1.1\r\nHost: h\r\n\r\n") }
            for client in held { _ = client.read(until: "ok\n") }
            func oneRequest() throws -> String {
                let client = try RawClient(port: port)
                client.send("GET /healthz HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
                return String(decoding: client.readToEnd().bytes, as: UTF8.self)
            }
            let refused = try oneRequest()
            // A closed connection gives its slot back.
            held.removeLast()
            var answer = ""
            for _ in 0..<40 {
                answer = try oneRequest()
                if answer.hasPrefix("HTTP/1.1 200 OK") { break }
                usleep(50_000)
            }
            withExtendedLifetime(held) {}
            return (refused, answer)
        }
        #expect(refused.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(refused.contains("too many connections from your address (the limit is 3)"))
        #expect(refused.contains("\r\nRetry-After: 5\r\n"))
        #expect(refused.contains("\r\nConnection: close\r\n"))
        #expect(answer.hasPrefix("HTTP/1.1 200 OK"))
        await server.stop()
    }

    @Test func aTrustedProxyIsNotCappedPerAddress() async throws {
        let server = try TestServer(router: Router()) { configuration in
            configuration.maxConnectionsPerIP = 2
            configuration.trustedProxies = ["127.0.0.1"]
        }
        let (held, answer) = try await Self.holdThenAsk(4, port: server.port)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK"))
        withExtendedLifetime(held) {}
        await server.stop()
    }

    @Test func theServerWideCapStillAppliesAndSaysSo() async throws {
        let server = try TestServer(router: Router()) { configuration in
            configuration.maxConnections = 2
            configuration.maxConnectionsPerIP = 10
        }
        let (held, refused) = try await Self.holdThenAsk(2, port: server.port)
        #expect(refused.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(refused.contains("the server is at its connection limit"))
        withExtendedLifetime(held) {}
        await server.stop()
    }

    @Test func perAddressCountsAreGivenBackWhenConnectionsClose() throws {
        let core = ServerCore(configuration: ServerConfiguration(), router: Router(), chain: { _, _ in Response(status: .ok) },
                              trusted: try TrustedProxies(["10.0.0.1"]), log: .discarding,
                              budget: DescriptorBudget(limit: 1024)) {}
        var admissions: [Admission] = []
        for _ in 0..<64 { admissions.append(core.admit(peer: "192.0.2.7")) }
        #expect(admissions.allSatisfy { $0 == .admitted(perClient: true) })
        #expect(core.admit(peer: "192.0.2.7") == .clientFull)
        #expect(core.admit(peer: "192.0.2.8") == .admitted(perClient: true))
        #expect(core.admit(peer: "10.0.0.1") == .admitted(perClient: false))
        #expect(core.connections(from: "192.0.2.7") == 64)
        for admission in admissions { core.release(admission, peer: "192.0.2.7") }
        core.release(.clientFull, peer: "192.0.2.7")
        #expect(core.connections(from: "192.0.2.7") == 0)
        #expect(core.rejecting.load(ordering: .relaxed) == 0)
        #expect(core.active.load(ordering: .relaxed) == 2)
    }

    @Test func theConnectionCapFollowsTheDescriptorLimit() throws {
        #expect(DescriptorBudget(limit: 256).connectionCapacity == 96)
        #expect(DescriptorBudget(limit: 1024).connectionCapacity == 480)
        #expect(DescriptorBudget(limit: 10).connectionCapacity == 1)
        var configuration = ServerConfiguration()
        configuration.maxConnections = 10_000
        let core = ServerCore(configuration: configuration, router: Router(), chain: { _, _ in Response(status: .ok) },
                              trusted: try TrustedProxies([]), log: .discarding,
                              budget: DescriptorBudget(limit: 256)) {}
        #expect(core.maxConnections == 96)
    }

    @Test func warningsAboutRunningOutAreRateLimited() {
        var warning = RateLimitedWarning()
        let second: UInt64 = 1_000_000_000
        #expect(warning.record(now: 0, interval: 10 * second) == 1)
        for tick in 1...1000 { #expect(warning.record(now: UInt64(tick) * second / 200, interval: 10 * second) == nil) }
        #expect(warning.record(now: 10 * second, interval: 10 * second) == 1001)
        #expect(warning.record(now: 11 * second, interval: 10 * second) == nil)
    }

    @Test func aLoopWhoseClockIsBehindTheLastReportDoesNotWarnAgain() {
        // Two loops share the warning; each passes the time it last woke. A loop that woke just
        // before the other reported is behind it, and must count as inside the interval.
        var warning = RateLimitedWarning()
        let second: UInt64 = 1_000_000_000
        #expect(warning.record(now: 100 * second, interval: 10 * second) == 1)
        #expect(warning.record(now: 100 * second - 5_000_000, interval: 10 * second) == nil)
        #expect(warning.record(now: 105 * second, interval: 10 * second) == nil)
        #expect(warning.record(now: 110 * second, interval: 10 * second) == 3)
    }
}
