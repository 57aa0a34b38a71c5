#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import HTTPClient

/// The team's Apple developer account as betactl manages it through the App Store Connect API:
/// the connected key, Apple's device list reconciled with the roster, device registration and ad
/// hoc profile regeneration. Every method that talks to Apple blocks: call it off any event loop.
public struct AppleAccount: Sendable {
    let home: Home
    var store: Store { home.store }

    /// The account of `home`.
    public init(home: Home) { self.home = home }

    /// The stored connection, or nil.
    public func connection() throws -> AppStoreConnectConnection? {
        try AppStoreConnectConnection.load(home: home)
    }

    /// A client for the stored connection; throws `notConnected` without one. Calls are logged to
    /// the home's call log and also handed to `log`.
    public func client(retry: HTTPClient.RetryPolicy = HTTPClient.RetryPolicy(),
                       log: (@Sendable (String) -> Void)? = nil) throws -> AppStoreConnectClient {
        guard let connection = try connection() else { throw AppStoreConnectError.notConnected }
        return AppStoreConnectClient(connection: connection, retry: retry, log: AppleCallLog.sink(home: home, also: log))
    }

    /// What `connect` found.
    public struct Connected: Sendable {
        /// The key id.
        public var keyID: String
        /// The team id (the App ID prefix of the team's bundle ids), when Apple showed one.
        public var teamID: String?
        /// Calls made.
        public var calls: Int
    }

    /// Checks `connection` with one call and stores it only when Apple accepts it.
    public func connect(_ connection: AppStoreConnectConnection, retry: HTTPClient.RetryPolicy = HTTPClient.RetryPolicy(),
                        log: (@Sendable (String) -> Void)? = nil) throws -> Connected {
        let client = AppStoreConnectClient(connection: connection, retry: retry, log: AppleCallLog.sink(home: home, also: log))
        let response = try client.send("GET", "/v1/bundleIds", query: [("limit", "1")])
        let page = try client.decode(ASC.List<ASC.BundleIDAttributes, ASC.Nothing>.self, response, path: "/v1/bundleIds",
                                     subject: "key \(connection.key.keyID)")
        try connection.save(home: home)
        let team = page.data.first?.attributes?.seedId
        try store.write { db in
            try Self.setState("team_id", team, db: db)
            try Self.setState("rate_limit", client.lastRateLimit, db: db)
        }
        return Connected(keyID: connection.key.keyID, teamID: team, calls: client.callCount)
    }

    /// Removes the stored key (and nothing else: Apple's list and the profiles made stay known).
    /// False when none was stored.
    @discardableResult
    public func disconnect() throws -> Bool {
        try AppStoreConnectConnection.remove(home: home)
    }

    // MARK: state

    static func setState(_ key: String, _ value: String?, db: SQLiteConnection) throws {
        if let value {
            try db.query("INSERT INTO apple_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                         [.text(key), .text(value)])
        } else {
            try db.query("DELETE FROM apple_state WHERE key = ?", [.text(key)])
        }
    }

    static func state(_ key: String, db: SQLiteConnection) throws -> String? {
        try db.queryOne("SELECT value FROM apple_state WHERE key = ?", [.text(key)])?.string(0)
    }

    /// Records the client's last rate-limit header.
    func recordRateLimit(_ client: AppStoreConnectClient) throws {
        guard let limit = client.lastRateLimit else { return }
        try store.write { db in try Self.setState("rate_limit", limit, db: db) }
    }
}
