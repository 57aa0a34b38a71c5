import BetaKit
import BetaServer
import BetaWeb
import Foundation
import Testing
import TestSupport

/// Where a web test sends its requests: a `betactl serve` process over a socket, or the same web
/// application in this process. Tests written against it read the same either way; only those
/// that test sockets, real clients or processes need the real server.
protocol WebEndpoint: Sendable {
    /// The origin of the server's links, e.g. `http://127.0.0.1:41234`.
    var base: String { get }
    /// Sends a request to `url` described with curl's options (`-X`, `-H`, `--data-binary`, `-F`, …).
    func fetch(_ url: String, _ arguments: [String]) async throws -> CurlResponse
}

extension WebEndpoint {
    /// `GET url` with no options.
    func fetch(_ url: String) async throws -> CurlResponse { try await fetch(url, []) }
}

extension ServeProcess: WebEndpoint {
    /// Runs curl against the real server.
    func fetch(_ url: String, _ arguments: [String]) async throws -> CurlResponse { try await curl(url, arguments) }
}

/// The web application `betactl serve` runs, on a fixture's home, answering in this process
/// through BetaServer's `InProcessClient`: the same router, middleware and handlers, without a
/// process to start, a port or a socket. Changes the CLI makes to the home are seen as the
/// server sees them (SQLite's data version).
///
/// Never open the home's database file in the test process itself (`Data(contentsOf:)`, a file
/// handle): closing any descriptor of a file drops every POSIX lock the process holds on it, so
/// the server's SQLite connections would lose theirs, and another process could checkpoint the
/// WAL under them. Read it with a child process (`sqlite3`, `python3`) instead.
final class InProcessServer: WebEndpoint, @unchecked Sendable {
    let base = "http://127.0.0.1:8080"
    let app: BetaWebApplication
    let client: InProcessClient
    let home: Home

    /// Opens the home at `path` and starts the application's background work (crash processing,
    /// webhooks) as `serve` does; `configure` changes its settings first.
    init(homePath: String, trustedProxies: [String] = [], configure: (inout WebConfiguration) -> Void = { _ in }) throws {
        home = try Home.open(at: homePath)
        var web = WebConfiguration()
        configure(&web)
        app = try BetaWebApplication(home: home, configuration: web)
        var server = ServerConfiguration()
        server.temporaryDirectory = home.temporaryPath
        server.trustedProxies = trustedProxies
        client = try InProcessClient(configuration: server, router: app.router, middleware: app.middleware)
        app.start()
    }

    /// Stops the application's background work.
    func stop() { app.stop() }

    func fetch(_ url: String, _ arguments: [String]) async throws -> CurlResponse {
        try await exchange(url, arguments).response
    }

    /// The `Set-Cookie` fields of the answer to the request, each as sent.
    func setCookies(_ url: String, _ arguments: [String]) async throws -> [String] {
        try await exchange(url, arguments).setCookies
    }

    private func exchange(_ url: String, _ arguments: [String]) async throws -> (response: CurlResponse, setCookies: [String]) {
        let request = try CurlArguments(url: url, base: base, arguments: arguments)
        var headers = HTTPHeaders()
        headers.add("Host", "127.0.0.1:8080")
        headers.add("User-Agent", "curl/8.0")
        headers.add("Accept", "*/*")
        for (name, value) in request.headers {
            headers.remove(name)
            headers.add(name, value)
        }
        if !request.body.isEmpty || request.method == "POST" || request.method == "PUT" {
            headers.set("Content-Length", String(request.body.count))
        }
        let response = await client.execute(HTTPMethod(request.method), request.target, headers: headers, body: request.body,
                                                peerAddress: request.peerAddress)
        if let jar = request.cookieJar { CookieJar.update(jar, setCookies: response.headers.values("Set-Cookie")) }
        var fields: [String: String] = [:]
        for field in response.headers { fields[field.name.lowercased()] = field.value }
        return (CurlResponse(status: response.status.code, headers: fields, body: Data(response.body)), response.headers.values("Set-Cookie"))
    }
}

extension WebFixture {
    /// The web application on this fixture's home, in this process.
    func inProcess(trustedProxies: [String] = [], _ configure: (inout WebConfiguration) -> Void = { _ in }) throws -> InProcessServer {
        try InProcessServer(homePath: directory.child("home"), trustedProxies: trustedProxies, configure: configure)
    }
}

extension AdminFixture {
    /// The web application on this fixture's home, in this process.
    func inProcess(trustedProxies: [String] = [], _ configure: (inout WebConfiguration) -> Void = { _ in }) throws -> InProcessServer {
        try web.inProcess(trustedProxies: trustedProxies, configure)
    }
}
