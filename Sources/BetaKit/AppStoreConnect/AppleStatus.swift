#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `apple status` shows: the key, the team, the last sync and the device counts.
public struct AppleStatus: Sendable {
    /// The key id, nil when no key is connected.
    public var keyID: String?
    /// The issuer id.
    public var issuerID: String?
    /// The API base URL in use.
    public var baseURL: String?
    /// When the key was connected.
    public var connectedAt: Date?
    /// The team id, when known.
    public var teamID: String?
    /// When Apple's device list was last read, nil when never.
    public var lastSync: Date?
    /// Apple's last `X-Rate-Limit` header.
    public var rateLimit: String?
    /// Devices in Apple's list.
    public var appleDevices: Int
    /// Of those, disabled.
    public var appleDisabled: Int
    /// Active roster devices registered (and enabled) at Apple.
    public var registered: Int
    /// Active roster devices disabled at Apple.
    public var disabled: Int
    /// Active roster devices not registered at Apple.
    public var pending: Int
    /// Per family, Apple's slot count beside the roster's (families with devices only).
    public var ledger: [AppleLedgerEntry]

    /// Whether a key is connected.
    public var isConnected: Bool { keyID != nil }
}
