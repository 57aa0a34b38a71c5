#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What became of a crash report.
public enum CrashStatus: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Stored, waiting for the background processor.
    case queued
    /// Every frame in app code was resolved with archived symbols.
    case symbolicated
    /// Some app images had no symbols; `CrashRecord.missingSymbols` names them.
    case partial
    /// The report could not be read; `CrashRecord.error` says why.
    case unreadable
    /// A low-memory (jetsam, bug_type 298) report: no backtraces, a memory summary instead.
    case lowMemory = "low-memory"
    /// Another kind of diagnostic report, kept raw.
    case other

    /// The stored spelling.
    public var description: String { rawValue }
}

/// Where an upload came from.
public enum CrashSource: String, Sendable, Codable, CustomStringConvertible {
    /// The tester's page form.
    case page
    /// A HockeySDK client.
    case hockeyApp = "hockeyapp"
    /// KSCrash's standard sink.
    case kscrash
    /// The raw endpoint (`POST /api/v1/crashes?key=`).
    case raw
    /// `betactl add-crash`.
    case cli

    /// The stored spelling.
    public var description: String { rawValue }
}

/// One stored crash report and what processing made of it.
public struct CrashRecord: Sendable, Equatable {
    /// The report number.
    public var id: Int64
    /// The SHA-256 of the raw report (its blob).
    public var sha256: String
    /// Its size in bytes.
    public var size: Int64
    /// The file name it was first sent under, if any.
    public var fileName: String?
    /// When it was first received.
    public var receivedAt: Date
    /// When it was last received (a duplicate upload moves this).
    public var lastReceivedAt: Date
    /// What became of it.
    public var status: CrashStatus
    /// The format read: `ips`, `text`, `ipsText`, `kscrash`, `jetsam`, or a diagnostic report's kind.
    public var format: String?
    /// The `.ips` bug_type, when there is one.
    public var bugType: String?
    /// When it was last processed.
    public var processedAt: Date?
    /// Why it could not be read (status `unreadable`).
    public var error: String?
    /// The crashed process.
    public var processName: String?
    /// Its bundle identifier.
    public var bundleID: String?
    /// The app's marketing version.
    public var appVersion: String?
    /// The app's build number.
    public var appBuild: String?
    /// The OS, as the report writes it.
    public var osVersion: String?
    /// The device model code, such as "iPhone14,5".
    public var hardwareModel: String?
    /// The report's incident identifier.
    public var incidentIdentifier: String?
    /// When the crash happened, as the report writes it.
    public var crashedAt: String?
    /// The exception type with its signal.
    public var exceptionType: String?
    /// A one-line summary: the signature for crashes, the memory picture for low-memory reports,
    /// the kind for other reports.
    public var summary: String?
    /// The group's signature key, for crashes.
    public var signatureKey: String?
    /// The release whose executable UUIDs the report matches.
    public var releaseID: Int64?
    /// The tester it is linked to.
    public var testerID: Int64?
    /// The tester's name, when linked.
    public var testerName: String?
    /// The device it is linked to.
    public var deviceUDID: String?
    /// App images that had no symbols (status `partial`).
    public var missingSymbols: [CrashMissingImage]
    /// How many times it was uploaded.
    public var uploadCount: Int
}

/// An app image a report needs symbols for and the archive does not have.
public struct CrashMissingImage: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The image UUID.
    public var uuid: String
    /// The architecture, when the report names it.
    public var architecture: String?
    /// The image name.
    public var name: String

    /// Creates a missing-image record.
    public init(uuid: String, architecture: String?, name: String) {
        self.uuid = uuid
        self.architecture = architecture
        self.name = name
    }

    /// "Name UUID (arch)".
    public var description: String { "\(name) \(uuid)" + (architecture.map { " (\($0))" } ?? "") }
}

/// One upload of a report: who sent it, how, and what they wrote.
public struct CrashUpload: Sendable, Equatable {
    /// The upload number.
    public var id: Int64
    /// The report it delivered.
    public var reportID: Int64
    /// When.
    public var receivedAt: Date
    /// How.
    public var source: CrashSource
    /// The ingest key used, for SDK uploads.
    public var keyID: Int64?
    /// The tester, for page uploads (or `add-crash --tester`).
    public var testerID: Int64?
    /// The SDK's user id.
    public var userID: String?
    /// The SDK's contact.
    public var contact: String?
    /// What the sender wrote.
    public var description: String?
    /// The file name sent.
    public var fileName: String?
}

/// Reports grouped by crash signature.
public struct CrashGroup: Sendable, Equatable {
    /// The signature key (16 hex digits).
    public var signatureKey: String
    /// The exception type with its signal.
    public var exceptionType: String
    /// The app frames of the signature, innermost first.
    public var frames: [String]
    /// "EXC_BAD_ACCESS (SIGSEGV) | f | g | h".
    public var title: String
    /// How many distinct reports it holds.
    public var count: Int
    /// When its first report was received.
    public var firstSeenAt: Date
    /// When its latest report was received.
    public var lastSeenAt: Date
    /// The releases affected.
    public var releaseIDs: [Int64]
    /// The testers affected.
    public var testerIDs: [Int64]
    /// One report standing for the group: the latest of the best-symbolicated ones.
    public var representativeID: Int64
}

/// What the store answered for one submitted report.
public struct CrashReceipt: Sendable, Equatable {
    /// The report number.
    public var reportID: Int64
    /// The raw report's SHA-256.
    public var sha256: String
    /// Whether the same bytes were already stored (the upload was added to them).
    public var duplicate: Bool
    /// The report's status when the receipt was written.
    public var status: CrashStatus
}

/// An app's ingest key.
public struct CrashKey: Sendable, Equatable {
    /// The key number.
    public var id: Int64
    /// The app it is for.
    public var bundleID: String
    /// The key itself.
    public var key: String
    /// When it was created.
    public var createdAt: Date
    /// When it was revoked, if it was.
    public var revokedAt: Date?
}
