#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An API token as stored: its name and scope, never its secret (only the secret's SHA-256 is kept).
public struct AccessToken: Sendable, Equatable {
    /// The token's number.
    public var id: Int64
    /// The name it was created with, unique among live tokens (e.g. `ci`, `ann-laptop`).
    public var name: String
    /// What it may do.
    public var scope: TokenScope
    /// When it was created.
    public var createdAt: Date
    /// When it was last used, to the hour (use is recorded at most once an hour).
    public var lastUsedAt: Date?
    /// When it was revoked, if it was.
    public var revokedAt: Date?

    /// Whether it still authenticates.
    public var isLive: Bool { revokedAt == nil }
}

/// A token just created: the only moment its secret exists outside the client.
public struct CreatedAccessToken: Sendable {
    /// The stored token.
    public var token: AccessToken
    /// The secret to send as `Authorization: Bearer <secret>`; shown once, never stored.
    public var secret: String
}
