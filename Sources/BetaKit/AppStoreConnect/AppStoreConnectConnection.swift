#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PosixIO

/// The connected key and where to reach Apple, as the home keeps it: one JSON file readable only
/// by its owner (0600, in a 0700 folder), outside the database so backups leave it out unless
/// asked (`backup --include-secrets`).
public struct AppStoreConnectConnection: Sendable, Equatable {
    /// Apple's API.
    public static let appleBaseURL = "https://api.appstoreconnect.apple.com"

    /// The key.
    public var key: AppStoreConnectKey
    /// The API's base URL, without a trailing slash (Apple's unless a test server is used).
    public var baseURL: String
    /// A PEM CA file to trust instead of the system's (for a test server), or nil.
    public var caFile: String?
    /// When it was connected.
    public var connectedAt: Date

    /// A connection.
    public init(key: AppStoreConnectKey, baseURL: String? = nil, caFile: String? = nil, connectedAt: Date) throws(AppStoreConnectError) {
        var base = (baseURL ?? Self.appleBaseURL).trimmed
        while base.hasSuffix("/") { base.removeLast() }
        let lower = base.lowercased()
        guard lower.hasPrefix("https://"), base.count > 8, !base.contains(" "), !base.contains("?") else {
            throw AppStoreConnectError.invalidBaseURL(baseURL ?? "")
        }
        self.key = key
        self.baseURL = base
        self.caFile = caFile
        self.connectedAt = connectedAt
    }

    /// The file's path in `home`.
    public static func path(home: Home) -> String { home.path + "/secrets/app-store-connect.json" }

    struct Stored: Codable {
        var keyID: String
        var issuerID: String
        var privateKey: String
        var baseURL: String
        var caFile: String?
        var connectedAt: String
    }

    /// The stored connection of `home`, or nil when none is.
    public static func load(home: Home) throws -> AppStoreConnectConnection? {
        let path = path(home: home)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        guard let stored = try? JSONDecoder().decode(Stored.self, from: data) else {
            throw AppStoreConnectError.damagedKeyFile(path)
        }
        return try AppStoreConnectConnection(key: AppStoreConnectKey(keyID: stored.keyID, issuerID: stored.issuerID, privateKeyPEM: stored.privateKey),
                                             baseURL: stored.baseURL, caFile: stored.caFile,
                                             connectedAt: Timestamp.date(stored.connectedAt) ?? Date(timeIntervalSince1970: 0))
    }

    /// Writes the connection to `home` (0600), replacing any earlier one in one rename.
    public func save(home: Home) throws {
        let path = Self.path(home: home)
        let folder = home.path + "/secrets"
        do { _ = try FileSystem.makeDirectory(folder, permissions: 0o700) } catch {
            if !error.alreadyExists { throw FileSystemError(error, operation: "create") }
        }
        let stored = Stored(keyID: key.keyID, issuerID: key.issuerID, privateKey: key.privateKeyPEM, baseURL: baseURL, caFile: caFile,
                            connectedAt: Timestamp.string(connectedAt))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let bytes = [UInt8](try encoder.encode(stored))
        try AtomicFile.write(bytes, to: path)
    }

    /// Removes the stored connection of `home`; false when there was none.
    @discardableResult
    public static func remove(home: Home) throws -> Bool {
        let path = path(home: home)
        do { return try FileSystem.removeFile(path) } catch { throw FileSystemError(error, operation: "remove") }
    }
}
