#if canImport(Glibc)
import Glibc
#endif
import Foundation
import HTTPClient
import Testing
import TestSupport
@testable import BetaKit

/// A loopback socket that accepts connections into its backlog and never answers.
final class SilentListener: @unchecked Sendable {
    let fd: Int32
    let port: Int
    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        guard bound, listen(fd, 8) == 0 else { throw POSIXError(.EADDRINUSE) }
    }
    func close() { _ = Glibc.close(fd) }
    deinit { close() }
}

/// Network failures, TLS failures and timeouts are told apart.
@Suite struct HTTPClientFailureTests {
    @Test func noAnswerWithinTheTimeoutIsATimeout() throws {
        let listener = try SilentListener()
        let client = HTTPClient(configuration: .init(timeout: 0.5, connectTimeout: 0.5))
        #expect(throws: HTTPClientError.timedOut(host: "127.0.0.1:\(listener.port)", seconds: 0.5)) {
            _ = try client.send(HTTPRequest(method: "GET", url: "https://127.0.0.1:\(listener.port)/v1/devices"))
        }
    }

    @Test func nothingListeningIsAConnectionFailure() throws {
        let listener = try SilentListener()
        let port = listener.port
        listener.close()
        do {
            _ = try HTTPClient().send(HTTPRequest(method: "GET", url: "https://127.0.0.1:\(port)/"))
            Issue.record("nothing listens, so the request must fail")
        } catch {
            guard case .cannotConnect = error else { Issue.record("\(error)"); return }
            #expect(error.description.contains("could not connect to 127.0.0.1:\(port)"))
        }
    }

    @Test(.enabled(if: AppStoreConnectServer.isAvailable, "needs the test App Store Connect server's venv (.ci/install-deps --test)"))
    func anUntrustedCertificateIsATLSFailure() throws {
        let server = try AppStoreConnectServer()
        do {
            _ = try HTTPClient().send(HTTPRequest(method: "GET", url: server.baseURL + "/v1/devices"))
            Issue.record("the server's CA is not trusted, so the request must fail")
        } catch {
            guard case .tls = error else { Issue.record("\(error)"); return }
            #expect(error.description.contains("TLS connection to"))
        }
        let trusted = try HTTPClient(configuration: .init(caFile: server.caFile)).send(HTTPRequest(method: "GET", url: server.baseURL + "/v1/devices"))
        #expect(trusted.status == 400, "with the CA trusted, the server answers (a request without a token breaks the contract)")
        #expect(trusted.header("x-request-id") != nil)
    }

    @Test func aURLThatIsNotHTTPIsRefusedBeforeAnything() {
        #expect(throws: HTTPClientError.invalidURL("ftp://example.com/")) {
            _ = try HTTPClient().send(HTTPRequest(method: "GET", url: "ftp://example.com/"))
        }
    }
}
