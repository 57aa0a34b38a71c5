#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// The automatic provisioning switch (`betactl apple auto on|off|status`) and its batching window.
/// Off by default. While on, every approved device request (by the rule or by an admin) queues a
/// `register-device` job in the same transaction as the approval.
public struct AutoProvisioning: Sendable {
    let home: Home

    /// The default batching window, seconds.
    public static let defaultWindow = 120
    /// The longest window accepted, seconds.
    public static let maximumWindow = 86_400

    /// The switch of `home`.
    public init(home: Home) { self.home = home }

    /// The switch, the window and what `on` would still need.
    public struct Status: Sendable, Equatable {
        /// Whether approved devices are provisioned automatically.
        public var enabled: Bool
        /// Seconds approvals are gathered into one batch.
        public var window: Int
        /// What is missing for the flow to work (each with the command that provides it); empty when nothing is.
        public var missing: [String]
        /// The approval rule in force.
        public var rule: ApprovalRule
    }

    /// Where things stand.
    public func status() throws -> Status {
        let (enabled, window) = try home.store.read { db in (try Self.isOn(db: db), try Self.window(db: db)) }
        return Status(enabled: enabled, window: window, missing: try missing(), rule: try DeviceRequests(home: home).rule())
    }

    /// What the flow needs and lacks: an App Store Connect key, a code-signing identity, an approval rule.
    public func missing() throws -> [String] {
        var missing: [String] = []
        if try AppStoreConnectConnection.load(home: home) == nil {
            missing.append("an App Store Connect key (`betactl apple connect --key AuthKey_ID.p8 --key-id ID --issuer-id UUID`)")
        }
        if try CodeIdentityStore(home: home).current() == nil {
            missing.append("a code-signing identity (`betactl code-identity import DIST.p12 --password-file F`)")
        }
        if try DeviceRequests(home: home).rule() == .off {
            missing.append("an approval rule (`betactl approval-rule set --all` or `--group GROUP`)")
        }
        return missing
    }

    /// Turns the flow on (refusing, naming each missing piece, when something is missing) and sets
    /// the window when given.
    @discardableResult
    public func turnOn(window: Int? = nil) throws -> Status {
        let missing = try missing()
        guard missing.isEmpty else { throw JobError.autoRequirements(missing) }
        try home.store.write { db in
            try AppleAccount.setState("auto", "on", db: db)
            if let window { try AppleAccount.setState("auto_window", String(try Self.checked(window)), db: db) }
        }
        return try status()
    }

    /// Turns the flow off: approvals queue nothing more; jobs already queued still run (cancel them with `jobs cancel`).
    @discardableResult
    public func turnOff() throws -> Status {
        try home.store.write { db in try AppleAccount.setState("auto", nil, db: db) }
        return try status()
    }

    /// Sets the batching window without switching anything.
    @discardableResult
    public func setWindow(_ seconds: Int) throws -> Status {
        let window = try Self.checked(seconds)
        try home.store.write { db in try AppleAccount.setState("auto_window", String(window), db: db) }
        return try status()
    }

    static func checked(_ seconds: Int) throws(JobError) -> Int {
        guard (0 ... maximumWindow).contains(seconds) else { throw JobError.invalidWindow(String(seconds)) }
        return seconds
    }

    static func isOn(db: SQLiteConnection) throws -> Bool { try AppleAccount.state("auto", db: db) == "on" }

    static func window(db: SQLiteConnection) throws -> Int {
        try AppleAccount.state("auto_window", db: db).flatMap(Int.init) ?? defaultWindow
    }

    /// Queues the automatic flow for device `udid` now, whether or not the switch is on (an admin
    /// asking for one device, or the demo showing the flow): nothing is queued when a job for it is
    /// already pending. Returns the job's number, or nil when one was pending.
    @discardableResult
    public func provision(_ udid: DeviceIdentifier, now: Date) throws -> Int64? {
        try home.store.write { db in try Self.queueRegistration(udid: udid.value, db: db, now: now) }
    }

    /// Inside the transaction that approves `udid`: queues its `register-device` job when the flow
    /// is on and none is pending for it.
    static func deviceApproved(udid: String, db: SQLiteConnection, now: Date) throws {
        guard try isOn(db: db) else { return }
        try queueRegistration(udid: udid, db: db, now: now)
    }

    @discardableResult
    static func queueRegistration(udid: String, db: SQLiteConnection, now: Date) throws -> Int64? {
        let pending = try db.queryOne("""
            SELECT 1 FROM jobs WHERE kind = ? AND subject = ? COLLATE NOCASE AND state NOT IN ('succeeded', 'failed', 'cancelled')
            """, [.text(JobKind.registerDevice.rawValue), .text(udid)])
        guard pending == nil else { return nil }
        return try JobQueue.enqueue(.registerDevice, subject: udid, payload: ProvisioningPayload.Register(udid: udid).json, step: "register", db: db, now: now)
    }
}
