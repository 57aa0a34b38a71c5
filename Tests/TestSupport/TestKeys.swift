import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Throwaway RSA private keys for tests, made once per checkout and reused by every test and
/// process (Tests/Servers/asc_server.py follows the same scheme in the same folder): generating
/// RSA keys used to be a fifth of the suite's CPU. Certificates are still made fresh by each test
/// from these keys; nothing tests key generation itself.
///
/// A role names a key: distinct roles give distinct keys, the same role the same key everywhere.
/// Tests that need two different keys (a key that matches no certificate, another identity, each
/// level of a chain) ask for two roles.
public enum TestKeys {
    /// The environment variable naming the cache folder, read here and by the Python test servers.
    public static let environmentVariable = "BETACTL_TEST_KEYS"

    /// The cache folder: `$BETACTL_TEST_KEYS`, else `<repository>/.build/test-keys`. In `.build`
    /// rather than the shared temporary directory because it belongs to this checkout only (no other
    /// user can plant a key there, no temporary-files cleaner removes it mid-run), git ignores it,
    /// and it goes away with the build it serves (`rm -rf .build`).
    public static var directory: String {
        if let configured = ProcessInfo.processInfo.environment[environmentVariable], !configured.isEmpty { return configured }
        return Repository.root.appendingPathComponent(".build/test-keys").path
    }

    /// The path of the PEM (PKCS#8, unencrypted) RSA key of `bits` dedicated to `role` in the cache
    /// folder, generating it on first use. Blocks while openssl runs: from async code, call it
    /// inside `blocking { }`.
    public static func rsa(_ role: String, bits: Int = 2048) throws -> String {
        let name = try fileName(role, bits: bits)
        if let known = known.withLock({ $0[name] }) { return known }
        // One generation per role in this process; other processes are kept apart by `link`.
        let lock = locks.withLock { locks in
            if let lock = locks[name] { return lock }
            let lock = NSLock()
            locks[name] = lock
            return lock
        }
        lock.lock()
        defer { lock.unlock() }
        let path = try rsa(role, bits: bits, in: directory)
        known.withLock { $0[name] = path }
        return path
    }

    /// `rsa(role, bits:)` copied to `destination`, for callers whose other code reads the key there.
    /// Returns `destination`.
    @discardableResult
    public static func rsa(_ role: String, bits: Int = 2048, copiedTo destination: String) throws -> String {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: try rsa(role, bits: bits)))
        try bytes.write(to: URL(fileURLWithPath: destination))
        return destination
    }

    /// The key of `role` in `folder`, made if missing: generated under a unique temporary name in
    /// that folder and published with a hard link, so the first creator wins, a published key is
    /// never replaced (a test may already have made a certificate for it) and no reader sees a
    /// partial file; a loser deletes its own and uses the winner's. Safe across threads and processes.
    public static func rsa(_ role: String, bits: Int = 2048, in folder: String) throws -> String {
        let path = folder + "/" + (try fileName(role, bits: bits))
        if FileManager.default.fileExists(atPath: path) { return path }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = folder + "/.tmp-\(getpid())-\(UUID().uuidString).pem"
        defer { unlink(temporary) }
        let made = try runToolNow("openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:\(bits)", "-out", temporary])
        guard made.status == 0 else {
            throw TestKeyError(role: role, reason: "openssl genpkey failed (\(made.error.trimmingCharacters(in: .whitespacesAndNewlines))); check that openssl is installed (.ci/install-deps --test)")
        }
        if link(temporary, path) != 0 && errno != EEXIST {
            let reason = String(cString: strerror(errno))
            throw TestKeyError(role: role, reason: "the key could not be published as \(path) (\(reason)); check that \(folder) is writable or set \(environmentVariable)")
        }
        return path
    }

    /// `rsa<bits>-<role>.pem`, once `role` and `bits` are checked.
    static func fileName(_ role: String, bits: Int) throws -> String {
        let allowed = role.unicodeScalars.allSatisfy { ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || $0 == "-" || $0 == "_" || $0 == "." }
        guard !role.isEmpty, allowed, !role.hasPrefix(".") else {
            throw TestKeyError(role: role, reason: "a role is a non-empty name of letters, digits, '-', '_' and '.', not starting with '.'")
        }
        guard [1024, 2048, 3072, 4096].contains(bits) else {
            throw TestKeyError(role: role, reason: "\(bits) bits is not a size tests use; ask for 1024, 2048, 3072 or 4096")
        }
        return "rsa\(bits)-\(role).pem"
    }

    private static let known = Locked<[String: String]>([:])
    private static let locks = Locked<[String: NSLock]>([:])
}

/// A test key could not be had.
public struct TestKeyError: Error, CustomStringConvertible {
    /// The role asked for.
    public var role: String
    /// What went wrong and what to do.
    public var reason: String

    /// The role and the reason.
    public var description: String { "test key \"\(role)\": \(reason)" }
}
