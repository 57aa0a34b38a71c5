import Foundation

/// The test webhook receiver (Tests/Servers/webhook_receiver.py, Python's http.server) on a free
/// loopback port. It verifies Standard Webhooks signatures with Python's `hmac` against the
/// secrets it is given, and logs every request; see the script for how each path answers.
public final class WebhookReceiver: @unchecked Sendable {
    /// One request as the receiver logged it.
    public struct Request: Sendable, Decodable {
        /// The path, `/ok`, `/fail/2`, ….
        public var path: String
        /// Header fields, names lower-cased.
        public var headers: [String: String]
        /// The body as text.
        public var body: String
        /// When it arrived (seconds since 1970).
        public var time: Double
        /// Whether the signature verified with Python's hmac; nil when no secret was given for the path.
        public var verified: Bool?
        /// Whether its `webhook-id` had been seen before.
        public var duplicate: Bool
        /// The body parsed as a JSON object.
        public var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
        }
    }

    /// `http://127.0.0.1:PORT`.
    public let base: String
    /// The receiver's state folder.
    public let directory: TemporaryDirectory
    private let process: ChildProcess
    private let secrets = Locked<[String: String]>([:])

    /// Starts the receiver.
    public init() throws {
        directory = try TemporaryDirectory("webhooks")
        let out = Pipe()
        let script = Repository.root.appendingPathComponent("Tests/Servers/webhook_receiver.py").path
        process = try ChildProcess("python3", [script, "--state", directory.path], output: .pipe(out), error: .file(directory.child("receiver.err")))
        let line = AppStoreConnectServer.firstLine(out.fileHandleForReading)
        guard let range = line.range(of: "listening on "), let port = Int(line[range.upperBound...].prefix { $0.isNumber }) else {
            process.killGroup()
            throw ChildProcessError(executable: "webhook_receiver.py", reason: "it did not start: \(line)")
        }
        base = "http://127.0.0.1:\(port)"
    }

    deinit { process.killGroup() }

    /// Tells the receiver to verify signatures on `path` with `secret` (`whsec_…`).
    public func expectSecret(_ secret: String, for path: String) throws {
        let all = secrets.withLock { values -> [String: String] in
            values[path] = secret
            return values
        }
        let data = try JSONSerialization.data(withJSONObject: all)
        try data.write(to: URL(fileURLWithPath: directory.child("secrets.json")), options: .atomic)
    }

    /// Every request so far, in arrival order.
    public var requests: [Request] {
        guard let text = try? String(contentsOfFile: directory.child("requests.jsonl"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
    }

    /// Waits (polling, up to `timeout` seconds) until `condition` holds for the requests, and returns them.
    @discardableResult
    public func waitFor(timeout: TimeInterval = 60, _ condition: ([Request]) -> Bool) -> [Request] {
        let deadline = Date().addingTimeInterval(timeout)
        var current = requests
        while !condition(current) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            current = requests
        }
        return current
    }

    /// Starts the receiver from async code (Python's start-up is waited for on a thread of its own).
    public static func start() async throws -> WebhookReceiver {
        try await blocking { try WebhookReceiver() }
    }

    /// `waitFor` for async code: polls (up to `timeout` seconds) with `Task.sleep` between looks, so
    /// the wait holds no cooperative thread, until `condition` holds for the requests; returns them.
    @discardableResult
    public func arrived(timeout: TimeInterval = 60, until condition: ([Request]) -> Bool) async -> [Request] {
        let deadline = Date().addingTimeInterval(timeout)
        var current = requests
        while !condition(current) && Date() < deadline {
            guard (try? await Task.sleep(for: .milliseconds(50))) != nil else { break }
            current = requests
        }
        return current
    }
}
