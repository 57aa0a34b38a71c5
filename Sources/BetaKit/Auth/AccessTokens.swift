#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// The home's API tokens: created with a scope, listed, revoked, and checked on every API request.
///
/// A token's secret is 32 random bytes in base64url after the prefix `bct_` (so secret scanners
/// and people can tell what it is). Only its SHA-256 is stored, and lookups go by that digest, so
/// no comparison ever runs over a secret.
public struct AccessTokens: Sendable {
    /// The prefix every secret starts with.
    public static let secretPrefix = "bct_"
    /// How stale `lastUsedAt` may get before a request records a new use: once an hour keeps
    /// API traffic from turning into a database write per request.
    static let usageResolution: TimeInterval = 3600

    let store: Store

    /// The tokens of `home`.
    public init(home: Home) { store = home.store }

    /// Creates a token named `name` with `scope`; the secret is returned once and never stored.
    public func create(name raw: String, scope: TokenScope, now: Date) throws -> CreatedAccessToken {
        let name = try Self.validate(name: raw)
        let secret = Self.secretPrefix + InviteToken.make()
        let stamp = Timestamp.string(now)
        let token: AccessToken = try store.write { db in
            if try db.queryOne("SELECT 1 FROM api_tokens WHERE name = ? AND revoked_at IS NULL", [.text(name)]) != nil {
                throw AuthError.duplicateName(name)
            }
            try db.query("INSERT INTO api_tokens (name, digest, scope, created_at) VALUES (?, ?, ?, ?)",
                         [.text(name), .text(Self.digest(secret)), .text(scope.rawValue), .text(stamp)])
            return AccessToken(id: db.lastInsertRowID, name: name, scope: scope, createdAt: Timestamp.date(stamp) ?? now,
                               lastUsedAt: nil, revokedAt: nil)
        }
        return CreatedAccessToken(token: token, secret: secret)
    }

    /// Every token, live ones first, then by name; revoked ones only when asked.
    public func list(includeRevoked: Bool = false) throws -> [AccessToken] {
        try store.read { db in
            let filter = includeRevoked ? "" : " WHERE revoked_at IS NULL"
            return try db.query("SELECT \(Self.columns.list) FROM api_tokens\(filter) ORDER BY revoked_at IS NOT NULL, name, id")
                .map { row throws(SQLRowError) in try Self.token(from: Self.columns.reader(row)) }
        }
    }

    /// Revokes the live token named `name`: it stops authenticating at once, and every dashboard
    /// session opened with it ends.
    @discardableResult
    public func revoke(name raw: String, now: Date) throws -> AccessToken {
        let name = raw.trimmed
        let stamp = Timestamp.string(now)
        return try store.write { db in
            guard let row = try db.queryOne("SELECT \(Self.columns.list) FROM api_tokens WHERE name = ? AND revoked_at IS NULL", [.text(name)]) else {
                throw AuthError.unknownToken(name)
            }
            var token = try Self.token(from: Self.columns.reader(row))
            try db.query("UPDATE api_tokens SET revoked_at = ? WHERE id = ?", [.text(stamp), .integer(token.id)])
            try db.query("UPDATE admin_sessions SET ended_at = ? WHERE token_id = ? AND ended_at IS NULL", [.text(stamp), .integer(token.id)])
            token.revokedAt = Timestamp.date(stamp)
            return token
        }
    }

    /// The live token whose secret is `secret`, or nil. Records the use when the last recorded one
    /// is more than an hour old.
    public func authenticate(secret: String, now: Date) throws -> AccessToken? {
        guard Self.isPlausible(secret) else { return nil }
        let digest = Self.digest(secret)
        let found = try store.read { db in
            try db.queryOne("SELECT \(Self.columns.list) FROM api_tokens WHERE digest = ? AND revoked_at IS NULL", [.text(digest)])
                .map { row throws(SQLRowError) in try Self.token(from: Self.columns.reader(row)) }
        }
        guard var token = found else { return nil }
        if token.lastUsedAt.map({ now.timeIntervalSince($0) >= Self.usageResolution }) ?? true {
            let stamp = Timestamp.string(now)
            try store.write { db in
                try db.query("UPDATE api_tokens SET last_used_at = ? WHERE id = ?", [.text(stamp), .integer(token.id)])
            }
            token.lastUsedAt = Timestamp.date(stamp)
        }
        return token
    }

    /// The scope of every live token by the SHA-256 of its secret: what a server keeps in memory to
    /// turn away an upload with an unknown token before reading its body.
    public func liveScopesByDigest() throws -> [String: TokenScope] {
        try store.read { db in
            var scopes: [String: TokenScope] = [:]
            for found in try db.query("SELECT \(Self.scopeColumns.list) FROM api_tokens WHERE revoked_at IS NULL") {
                let row = Self.scopeColumns.reader(found)
                scopes[try row.text("digest")] = try row.required("scope", as: TokenScope.self)
            }
            return scopes
        }
    }

    /// The hex SHA-256 of a secret, as stored (what `liveScopesByDigest` is keyed by).
    public static func digest(of secret: String) -> String? { isPlausible(secret) ? digest(secret) : nil }

    /// The hex SHA-256 of a secret, as stored.
    static func digest(_ secret: String) -> String { SHA256.hash(Array(secret.utf8)).hex }

    /// Whether `secret` has the shape of a token secret, checked before hashing.
    static func isPlausible(_ secret: String) -> Bool {
        secret.hasPrefix(secretPrefix) && InviteToken.isPlausible(secret.dropFirst(secretPrefix.count))
    }

    static func validate(name raw: String) throws(AuthError) -> String {
        let name = raw.trimmed
        guard (1 ... 64).contains(name.count),
              name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0" ... "9").contains($0) || ".-_".unicodeScalars.contains($0)) })
        else { throw AuthError.invalidName(raw) }
        return name
    }

    /// The columns `liveScopesByDigest()` reads.
    static let scopeColumns = SQLColumns(["digest", "scope"])

    /// The columns of `SELECT … FROM api_tokens`, shared with `token(from:)`.
    static let columns = SQLColumns(["id", "name", "scope", "created_at", "last_used_at", "revoked_at"])

    /// Decodes a token from a row whose SELECT includes `columns` (under those names).
    static func token(from row: SQLRowReader) throws(SQLRowError) -> AccessToken {
        AccessToken(id: try row.int("id"), name: try row.text("name"), scope: try row.required("scope", as: TokenScope.self),
                    createdAt: try row.date("created_at"), lastUsedAt: try row.optionalDate("last_used_at"), revokedAt: try row.optionalDate("revoked_at"))
    }
}
