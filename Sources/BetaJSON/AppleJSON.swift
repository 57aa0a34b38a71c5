#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit

/// JSON shapes of the App Store Connect operations, printed by `apple … --json` and answered by
/// `/api/v1/apple/…`. Field names are part of betactl's interface: add fields, never rename them.
public enum AppleJSON {
    /// One family's slot count at Apple beside the roster's.
    public struct LedgerJSON: Encodable, Sendable {
        var family: String
        var apple: Int
        var roster: Int
        var difference: Int
        /// Why they differ; absent when they agree.
        var explanation: String?
    }

    /// `apple status`.
    public struct StatusJSON: Encodable, Sendable {
        var connected: Bool
        var keyId: String?
        var issuerId: String?
        var teamId: String?
        var baseUrl: String?
        var connectedAt: String?
        var lastSync: String?
        var rateLimit: String?
        var appleDevices: Int
        var appleDisabled: Int
        var registered: Int
        var disabled: Int
        var pending: Int
        var ledger: [LedgerJSON]
    }

    /// `apple sync`.
    public struct SyncJSON: Encodable, Sendable {
        var appleDevices: Int
        var appleDisabled: Int
        var imported: [String]
        var registered: Int
        var disabled: Int
        var pending: Int
        var calls: Int
        var ledger: [LedgerJSON]
    }

    /// One device of `apple register`.
    public struct RegisteredJSON: Encodable, Sendable {
        var udid: String
        var name: String
        /// `registered`, `already-registered` or `refused`.
        var result: String
        var reason: String?
    }

    /// `apple register`.
    public struct RegisterJSON: Encodable, Sendable {
        var devices: [RegisteredJSON]
        var registered: Int
        var alreadyRegistered: Int
        var refused: Int
        var calls: Int
    }

    /// One profile of `apple profile`.
    public struct ProfileJSON: Encodable, Sendable {
        var bundleId: String
        var name: String
        var uuid: String
        var devices: Int
        var replaced: String?
    }

    /// `apple profile`.
    public struct ProfilesJSON: Encodable, Sendable {
        var bundleId: String
        var certificateSerial: String
        var profiles: [ProfileJSON]
        var calls: Int
    }

    static func ledger(_ entries: [AppleLedgerEntry]) -> [LedgerJSON] {
        entries.map { LedgerJSON(family: $0.family.rawValue, apple: $0.apple, roster: $0.roster, difference: $0.difference, explanation: $0.explanation) }
    }

    /// The JSON of a status.
    public static func status(_ status: AppleStatus) -> StatusJSON {
        StatusJSON(connected: status.isConnected, keyId: status.keyID, issuerId: status.issuerID, teamId: status.teamID, baseUrl: status.baseURL,
                   connectedAt: status.connectedAt.map(Timestamp.string), lastSync: status.lastSync.map(Timestamp.string),
                   rateLimit: status.rateLimit, appleDevices: status.appleDevices, appleDisabled: status.appleDisabled,
                   registered: status.registered, disabled: status.disabled, pending: status.pending, ledger: ledger(status.ledger))
    }

    /// The JSON of a sync.
    public static func sync(_ result: AppleSyncResult) -> SyncJSON {
        SyncJSON(appleDevices: result.appleDevices, appleDisabled: result.appleDisabled, imported: result.imported.map(\.value),
                 registered: result.registered, disabled: result.disabled, pending: result.pending, calls: result.calls, ledger: ledger(result.ledger))
    }

    /// The JSON of a registration.
    public static func register(_ result: AppleRegistration) -> RegisterJSON {
        RegisterJSON(devices: result.outcomes.map { RegisteredJSON(udid: $0.udid.value, name: $0.name, result: $0.kind.rawValue, reason: $0.reason) },
                     registered: result.count(.registered), alreadyRegistered: result.count(.alreadyRegistered),
                     refused: result.count(.refused), calls: result.calls)
    }

    /// The JSON of a profile regeneration.
    public static func profiles(_ result: AppleProfileRegeneration) -> ProfilesJSON {
        ProfilesJSON(bundleId: result.bundleID, certificateSerial: result.certificateSerial,
                     profiles: result.profiles.map { ProfileJSON(bundleId: $0.bundleID, name: $0.name, uuid: $0.uuid, devices: $0.devices, replaced: $0.replaced) },
                     calls: result.calls)
    }
}
