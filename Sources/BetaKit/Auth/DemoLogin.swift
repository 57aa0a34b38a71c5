#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The dashboard link `betactl demo` prints: a random key that opens an admin session once, in a
/// demo sandbox only. Only the key's SHA-256 is kept (in the settings table); using the key deletes
/// it, and minting a new one replaces an unused earlier one. Sessions it opens belong to an admin
/// token named `demo` whose secret nobody ever sees.
public struct DemoLogin: Sendable {
    /// The name of the token demo sessions are opened with.
    public static let tokenName = "demo"
    static let settingKey = "demo_login"

    let home: Home

    /// The demo login of `home`.
    public init(home: Home) { self.home = home }

    /// A new one-use key, replacing any unused one; refused unless the home is a `demo` sandbox.
    public func mint(now: Date) throws -> String {
        let key = InviteToken.make()
        try home.store.write { db in
            guard try Self.isDemo(db) else { throw DemoLoginError.notADemo(home.path) }
            try db.query("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                         [.text(Self.settingKey), .text(AccessTokens.digest(key))])
        }
        return key
    }

    /// Uses up `key` and opens an admin session; nil when the home is not a demo sandbox or `key`
    /// is not the pending one (already used, replaced or made up).
    public func redeem(key: String, now: Date) throws -> OpenedAdminSession? {
        guard InviteToken.isPlausible(key) else { return nil }
        return try home.store.write { db in
            // Digests are compared, so how long the comparison takes says nothing about the key.
            guard try Self.isDemo(db),
                  try db.queryOne("SELECT 1 FROM settings WHERE key = ? AND value = ?", [.text(Self.settingKey), .text(AccessTokens.digest(key))]) != nil
            else { return nil }
            try db.query("DELETE FROM settings WHERE key = ?", [.text(Self.settingKey)])
            return try AdminSessions.open(db, token: try Self.token(db, now: now), now: now)
        }
    }

    static func isDemo(_ db: SQLiteConnection) throws -> Bool {
        try db.queryOne("SELECT 1 FROM settings WHERE key = ? AND value = '1'", [.text(Store.SettingKey.demo)]) != nil
    }

    /// The live `demo` token (made with the admin scope and a secret thrown away when there is none).
    static func token(_ db: SQLiteConnection, now: Date) throws -> AccessToken {
        if let row = try db.queryOne("SELECT \(AccessTokens.columns.list) FROM api_tokens WHERE name = ? AND revoked_at IS NULL",
                                     [.text(tokenName)]) {
            return try AccessTokens.token(from: AccessTokens.columns.reader(row))
        }
        let stamp = Timestamp.string(now)
        let unused = AccessTokens.secretPrefix + InviteToken.make()
        try db.query("INSERT INTO api_tokens (name, digest, scope, created_at) VALUES (?, ?, 'admin', ?)",
                     [.text(tokenName), .text(AccessTokens.digest(unused)), .text(stamp)])
        return AccessToken(id: db.lastInsertRowID, name: tokenName, scope: .admin, createdAt: Timestamp.date(stamp) ?? now,
                           lastUsedAt: nil, revokedAt: nil)
    }
}

/// Why a demo login link could not be made.
public enum DemoLoginError: Error, Equatable, Sendable, CustomStringConvertible, CategorizedError {
    /// The home was not made by `betactl demo`.
    case notADemo(String)

    /// A sentence naming the home and the fix.
    public var description: String {
        switch self {
        case let .notADemo(path):
            "\(path) is not a demo sandbox, so it has no demo login link; log in to its dashboard with a token (`betactl token create NAME --scope admin`)"
        }
    }

    /// A refusal.
    public var category: ErrorCategory { .refused }
}
