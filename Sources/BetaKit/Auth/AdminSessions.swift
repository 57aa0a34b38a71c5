#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A dashboard login: who it is (the token it was opened with) and the CSRF token its forms carry.
public struct AdminSession: Sendable, Equatable {
    /// The token the session was opened with; its scope is the session's.
    public var token: AccessToken
    /// The value every state-changing form of this session must send back.
    public var csrfToken: String
    /// When the session was opened.
    public var createdAt: Date
    /// When it stops being accepted.
    public var expiresAt: Date
}

/// A session just opened: the only moment its id exists outside the browser's cookie.
public struct OpenedAdminSession: Sendable {
    /// The session.
    public var session: AdminSession
    /// The id to set as the session cookie; only its SHA-256 is stored.
    public var id: String
}

/// Dashboard sessions, stored server-side. The browser holds a random id in an HttpOnly cookie;
/// the database holds its SHA-256, the token it belongs to and its expiry. Logging out, revoking
/// the token or the expiry ends it.
public struct AdminSessions: Sendable {
    /// How long a session lasts from login.
    public static let lifetime: TimeInterval = 12 * 3600

    let store: Store

    /// The sessions of `home`.
    public init(home: Home) { store = home.store }

    /// Exchanges a token's secret for a new session; nil when the secret is not a live token's.
    public func open(secret: String, now: Date) throws -> OpenedAdminSession? {
        guard let token = try AccessTokens(store: store).authenticate(secret: secret, now: now) else { return nil }
        return try store.write { db in try Self.open(db, token: token, now: now) }
    }

    /// Opens a session for `token` inside a write transaction.
    static func open(_ db: SQLiteConnection, token: AccessToken, now: Date) throws -> OpenedAdminSession {
        let id = InviteToken.make()
        let csrf = InviteToken.make()
        let created = Timestamp.string(now)
        let expires = Timestamp.string(now.addingTimeInterval(lifetime))
        // Expired and ended sessions are only clutter; dropping them here keeps the table small.
        try db.query("DELETE FROM admin_sessions WHERE expires_at < ? OR ended_at IS NOT NULL", [.text(created)])
        try db.query("INSERT INTO admin_sessions (digest, token_id, csrf, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                     [.text(AccessTokens.digest(id)), .integer(token.id), .text(csrf), .text(created), .text(expires)])
        let session = AdminSession(token: token, csrfToken: csrf, createdAt: Timestamp.date(created) ?? now,
                                   expiresAt: Timestamp.date(expires) ?? now)
        return OpenedAdminSession(session: session, id: id)
    }

    /// The live session with cookie value `id`: not ended, not expired, its token not revoked.
    public func session(id: String, now: Date) throws -> AdminSession? {
        guard InviteToken.isPlausible(id) else { return nil }
        return try store.read { db in
            guard let found = try db.queryOne("""
                SELECT \(Self.sessionColumns.list)
                FROM admin_sessions s JOIN api_tokens t ON t.id = s.token_id
                WHERE s.digest = ? AND s.ended_at IS NULL AND s.expires_at > ? AND t.revoked_at IS NULL
                """, [.text(AccessTokens.digest(id)), .text(Timestamp.string(now))]) else { return nil }
            let row = Self.sessionColumns.reader(found)
            return AdminSession(token: try AccessTokens.token(from: row), csrfToken: try row.text("s.csrf"),
                                createdAt: try row.date("session_created_at"), expiresAt: try row.date("s.expires_at"))
        }
    }

    /// The columns `liveScopesByDigest` reads.
    static let scopeColumns = SQLColumns(["s.digest", "t.scope", "s.expires_at"])

    /// The scope and expiry of every live session by the SHA-256 of its id (what a server keeps in
    /// memory to turn away an upload from someone not logged in before reading its body).
    public func liveScopesByDigest(now: Date) throws -> [String: (scope: TokenScope, expiresAt: Date)] {
        try store.read { db in
            var scopes: [String: (scope: TokenScope, expiresAt: Date)] = [:]
            let rows = try db.query("SELECT \(Self.scopeColumns.list) FROM admin_sessions s JOIN api_tokens t ON t.id = s.token_id "
                + "WHERE s.ended_at IS NULL AND s.expires_at > ? AND t.revoked_at IS NULL", [.text(Timestamp.string(now))])
            for found in rows {
                let row = Self.scopeColumns.reader(found)
                scopes[try row.text("s.digest")] = (try row.required("t.scope", as: TokenScope.self), try row.date("s.expires_at"))
            }
            return scopes
        }
    }

    /// The hex SHA-256 of a session id, as stored (what `liveScopesByDigest` is keyed by).
    public static func digest(of id: String) -> String? { InviteToken.isPlausible(id) ? AccessTokens.digest(id) : nil }

    /// Ends the session with cookie value `id` (logout); ending an unknown or ended one does nothing.
    public func end(id: String, now: Date) throws {
        guard InviteToken.isPlausible(id) else { return }
        try store.write { db in
            try db.query("UPDATE admin_sessions SET ended_at = ? WHERE digest = ? AND ended_at IS NULL",
                         [.text(Timestamp.string(now)), .text(AccessTokens.digest(id))])
        }
    }
}

extension AccessTokens {
    init(store: Store) { self.store = store }
}

extension AdminSessions {
    /// A session's columns: its token's (as `AccessTokens.columns` names them), then its own.
    static let sessionColumns = SQLColumns(AccessTokens.columns.entries.map { "t.\($0) AS \($0)" }
                                           + ["s.csrf", "s.created_at AS session_created_at", "s.expires_at"])
}
