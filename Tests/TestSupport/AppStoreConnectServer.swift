import Foundation

/// The test App Store Connect server (Tests/Servers/asc_server.py) running on a free loopback port
/// over TLS with a CA it made, checking every request and response against Apple's OpenAPI document
/// in `../shared/asc/`. It needs `openapi-core`, which `.ci/install-deps --test` puts in its own
/// virtual environment (`$BETACTL_ASC_VENV`, else `~/.cache/betactl/asc-oracle`).
public final class AppStoreConnectServer: @unchecked Sendable {
    /// The API key the server knows: id, issuer and the P-256 private key file (AuthKey_….p8).
    public struct Key: Sendable {
        public var id: String
        public var issuer: String
        public var path: String
    }

    /// One call as the server logged it.
    public struct Call: Sendable, Decodable {
        public var n: Int
        public var method: String
        public var path: String
        public var status: Int
        /// Contract breaches (request or response against the OpenAPI document, or a bad token).
        public var problems: [String]
    }

    /// The interpreter with openapi-core.
    public static var python: String {
        let environment = ProcessInfo.processInfo.environment
        if let venv = environment["BETACTL_ASC_VENV"], !venv.isEmpty { return venv + "/bin/python" }
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.cache")
        return cache + "/betactl/asc-oracle/bin/python"
    }

    /// Apple's OpenAPI document.
    public static var document: String { SharedFixtures.root.deletingLastPathComponent().appendingPathComponent("asc/app-store-connect-openapi-3.7.0.json").path }

    /// Whether the server can run here (the venv and Apple's document exist).
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: python) && FileManager.default.fileExists(atPath: document)
    }

    /// The key the server accepts.
    public let key: Key
    /// `https://127.0.0.1:PORT`.
    public let baseURL: String
    /// The CA file to trust.
    public let caFile: String
    /// The server's state folder.
    public let directory: TemporaryDirectory
    private let process: ChildProcess

    /// Makes a key (or uses `key`), writes `scenario` (see asc_server.py; the key's fields are added)
    /// and starts the server.
    public init(scenario: [String: Any] = [:], key existing: Key? = nil) throws {
        directory = try TemporaryDirectory("asc")
        let keyPath: String
        if let existing {
            keyPath = existing.path
        } else {
            keyPath = directory.child("AuthKey_ABC123DEFG.p8")
            try Self.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", keyPath])
        }
        key = existing ?? Key(id: "ABC123DEFG", issuer: "57246542-96fe-1a63-e053-0824d011072a", path: keyPath)
        let publicPath = directory.child("public.pem")
        try Self.openssl(["pkey", "-in", keyPath, "-pubout", "-out", publicPath])
        var full = scenario
        full["key_id"] = key.id
        full["issuer_id"] = key.issuer
        full["public_key"] = try String(contentsOfFile: publicPath, encoding: .utf8)
        let scenarioPath = directory.child("scenario.json")
        try JSONSerialization.data(withJSONObject: full).write(to: URL(fileURLWithPath: scenarioPath))
        let state = directory.child("state")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let out = Pipe()
        let script = Repository.root.appendingPathComponent("Tests/Servers/asc_server.py").path
        // The server's RSA keys come from the same cache as the tests' (TestKeys).
        var environment = ProcessInfo.processInfo.environment
        environment[TestKeys.environmentVariable] = TestKeys.directory
        process = try ChildProcess(Self.python, [script, "--openapi", Self.document, "--state", state, "--scenario", scenarioPath],
                                   environment: environment, output: .pipe(out), error: .file(directory.child("server.err")))
        let line = Self.firstLine(out.fileHandleForReading)
        guard let range = line.range(of: "listening on ") else {
            process.killGroup()
            let errors = (try? String(contentsOfFile: directory.child("server.err"), encoding: .utf8)) ?? ""
            throw ChildProcessError(executable: "asc_server.py", reason: "did not start: \(line) \(errors)")
        }
        baseURL = String(line[range.upperBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
        caFile = state + "/ca.pem"
    }

    deinit {
        process.killGroup()
        _ = process.wait(timeout: 10)
    }

    static func firstLine(_ handle: FileHandle) -> String {
        var bytes = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            bytes.append(chunk)
            if bytes.contains(0x0A) { break }
        }
        return String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
    }

    static func openssl(_ arguments: [String]) throws {
        let result = try runToolNow("openssl", arguments)
        guard result.status == 0 else { throw ChildProcessError(executable: "openssl", reason: result.error) }
    }

    /// Every call so far, in order.
    public func calls() throws -> [Call] {
        let path = directory.child("state/calls.jsonl")
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Call.self, from: Data($0.utf8)) }
    }

    /// Every contract breach so far, each prefixed with its call.
    public func problems() throws -> [String] {
        try calls().flatMap { call in call.problems.map { "\(call.method) \(call.path): \($0)" } }
    }

    /// Sends a raw request with curl (for tests that break the contract on purpose); returns the status.
    public func curl(_ method: String, _ path: String, bearer: String = "x.y.z", body: String? = nil) throws -> Int {
        var arguments = ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", caFile, "-X", method,
                         "-H", "Authorization: Bearer \(bearer)"]
        if let body { arguments += ["-H", "Content-Type: application/json", "--data", body] }
        let result = try runToolNow("curl", arguments + [baseURL + path])
        return Int(result.text) ?? 0
    }
}
