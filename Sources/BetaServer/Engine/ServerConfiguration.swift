#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything the server needs to run; a plain value so it can be built from CLI flags or tests.
public struct ServerConfiguration: Sendable {
    /// Addresses to listen on.
    public var listen: [ListenAddress] = [ListenAddress(host: "127.0.0.1", port: 8080)]
    /// Event loop threads; defaults to one per core.
    public var eventLoops: Int = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    /// Parser and body limits.
    public var limits = HTTPLimits()
    /// Deadlines and minimum data rates.
    public var timeouts = ServerTimeouts()
    /// Most simultaneous connections; further ones get 503 and are closed. Lowered at start-up to
    /// what the open-file limit allows (two descriptors per connection, after a reserve), so the
    /// 503 comes before the descriptors run out.
    public var maxConnections: Int = 10_000
    /// Most simultaneous connections from one client address; further ones get 503 and are
    /// closed. Trusted proxies are exempt (they carry everyone's connections); 0 disables the cap.
    public var maxConnectionsPerIP: Int = 64
    /// Peers whose `X-Forwarded-*` headers are believed (addresses or CIDR blocks, e.g. `10.0.0.0/8`).
    public var trustedProxies: [String] = []
    /// Where large request bodies are spooled.
    public var temporaryDirectory: String = "/tmp"
    /// Value of the `Server` header; nil (the default) omits it.
    public var serverName: String?
    /// How the names of spooled request bodies in `temporaryDirectory` start; the process id and a
    /// random suffix follow. Files with this prefix whose process is gone are deleted at start-up,
    /// so no other program's files may share the directory and prefix.
    public var spoolFilePrefix: String = BodySpool.defaultPrefix
    /// Listen backlog.
    public var backlog: Int32 = 1024
    /// Called on an event loop's thread after each slice of handler work it ran for an `.eventLoop`
    /// route (from the start or a resumption to the next suspension), with the thread CPU time the
    /// slice used. CPU time, not wall time, so a busy machine does not inflate it: tests use it to
    /// check that no handler does heavy work on a loop. Nil, the default, measures nothing.
    public var loopWorkObserver: (@Sendable (Duration) -> Void)?

    /// The defaults described on each property.
    public init() {}
}

/// A numeric host and port to listen on.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// A numeric IPv4 or IPv6 address (no brackets).
    public var host: String
    /// The port; 0 picks a free one.
    public var port: Int

    /// Creates an address.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`, with IPv6 hosts in brackets: `127.0.0.1:8080`, `[::1]:8080`.
    public init(parsing text: String) throws(ServerError) {
        var host: Substring
        var portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw .invalidListenAddress(text) }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw .invalidListenAddress(text) }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw .invalidListenAddress(text) }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            if host.contains(":") { throw .invalidListenAddress(text) }
        }
        if host == "localhost" { host = "127.0.0.1" }
        guard let port = Int(portText), (0...65535).contains(port), !host.isEmpty,
              IPAddress(String(host)) != nil else { throw .invalidListenAddress(text) }
        self.host = String(host)
        self.port = port
    }

    /// `host:port`, bracketing IPv6 hosts.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Deadlines and rates that keep slow or idle clients from holding resources.
public struct ServerTimeouts: Sendable, Equatable {
    /// Time allowed to receive a complete request head (answered with 408 beyond).
    public var header: Duration = .seconds(10)
    /// How long a keep-alive connection may sit idle between requests.
    public var idle: Duration = .seconds(60)
    /// Minimum average rate, in bytes per second, for request bodies and responses, measured per window.
    public var minimumDataRate: Int = 1024
    /// How long a request body may take before the minimum data rate applies to it (like the
    /// header deadline, a fixed allowance from the end of the request head).
    public var bodyGrace: Duration = .seconds(10)
    /// The window over which the minimum data rate is measured.
    public var dataRateWindow: Duration = .seconds(10)
    /// How long to keep reading (and discarding) after a server-initiated close so the client sees the response.
    public var linger: Duration = .seconds(2)
    /// How long graceful shutdown waits for in-flight responses.
    public var shutdownGrace: Duration = .seconds(30)
    /// How often timers are checked.
    public var tick: Duration = .milliseconds(250)

    /// The defaults described on each property.
    public init() {}
}

extension Duration {
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        return UInt64(max(0, seconds)) &* 1_000_000_000 &+ UInt64(max(0, attoseconds / 1_000_000_000))
    }
}
