import BetaKit

/// JSON shapes of crash reports, groups, receipts and ingest keys, printed by the CLI's `--json`
/// and answered by the API. Field names are part of betactl's interface: add fields, never rename them.
public enum CrashJSON {
    /// The app a report is from, as the report says.
    public struct ProcessJSON: Encodable, Sendable, Equatable {
        /// The process name.
        public var name: String?
        /// The bundle identifier.
        public var bundleID: String?
        /// The marketing version.
        public var version: String?
        /// The build number.
        public var build: String?
    }

    /// A tester a report is linked to.
    public struct TesterRefJSON: Encodable, Sendable, Equatable {
        /// The tester's number.
        public var id: Int64
        /// Their name, when they still exist.
        public var name: String?
    }

    /// An app image without symbols.
    public struct MissingImageJSON: Encodable, Sendable, Equatable {
        /// The image name.
        public var name: String
        /// Its UUID.
        public var uuid: String
        /// Its architecture, when known.
        public var architecture: String?
    }

    /// One upload of a report.
    public struct UploadJSON: Encodable, Sendable, Equatable {
        /// When (ISO 8601).
        public var received: String
        /// `page`, `hockeyapp`, `kscrash`, `raw` or `cli`.
        public var source: String
        /// The tester's number, for page uploads.
        public var testerID: Int64?
        /// The ingest key's number, for SDK uploads.
        public var keyID: Int64?
        /// The SDK's user id.
        public var userID: String?
        /// The SDK's contact field.
        public var contact: String?
        /// What the sender wrote.
        public var description: String?
        /// The file name sent.
        public var fileName: String?
    }

    /// A crash report.
    public struct ReportJSON: Encodable, Sendable, Equatable {
        /// The report number.
        public var id: Int64
        /// The raw report's SHA-256.
        public var sha256: String
        /// Its size in bytes.
        public var size: Int64
        /// `queued`, `symbolicated`, `partial`, `unreadable`, `low-memory` or `other`.
        public var status: String
        /// `kind`: `crash`, `low-memory`, `other`, or `unknown` until processed or when unreadable.
        public var kind: String
        /// The format read (`ips`, `text`, `ipsText`, `kscrash`, `jetsam`).
        public var format: String?
        /// The `.ips` bug_type.
        public var bugType: String?
        /// First received (ISO 8601).
        public var received: String
        /// Last received (ISO 8601).
        public var lastReceived: String
        /// Last processed (ISO 8601).
        public var processed: String?
        /// Why it could not be read.
        public var error: String?
        /// The app.
        public var process: ProcessJSON
        /// The OS as the report writes it.
        public var osVersion: String?
        /// The device model code.
        public var hardwareModel: String?
        /// The incident identifier.
        public var incidentIdentifier: String?
        /// When it crashed, as the report writes it.
        public var crashed: String?
        /// The exception type with its signal.
        public var exceptionType: String?
        /// The signature, memory summary or kind, in one line.
        public var summary: String?
        /// The group's signature key.
        public var group: String?
        /// The linked release's number.
        public var release: Int64?
        /// The linked tester.
        public var tester: TesterRefJSON?
        /// The linked device's UDID.
        public var device: String?
        /// App images without symbols.
        public var missingSymbols: [MissingImageJSON]
        /// How many times it was uploaded.
        public var uploadCount: Int
        /// Every upload, when asked for one report.
        public var uploads: [UploadJSON]?
        /// One crash report only: symbolicated with the archive's symbols as they are now, in the
        /// shape `betactl symbolicate --json` prints (see `CrashJSON.detail`).
        public var symbolicated: SymbolicatedReport.JSONView? = nil
        /// One low-memory report only: its processes, largest first, and why they were killed.
        public var lowMemory: LowMemoryJSON? = nil
    }

    /// A group of reports with one crash signature.
    public struct GroupJSON: Encodable, Sendable, Equatable {
        /// The signature key.
        public var signature: String
        /// "EXC_BAD_ACCESS (SIGSEGV) | f | g | h".
        public var title: String
        /// The exception type.
        public var exceptionType: String
        /// The app frames of the signature.
        public var frames: [String]
        /// How many reports.
        public var count: Int
        /// First seen (ISO 8601).
        public var firstSeen: String
        /// Last seen (ISO 8601).
        public var lastSeen: String
        /// The releases affected.
        public var releases: [Int64]
        /// The testers affected.
        public var testers: [Int64]
        /// The representative report's number.
        public var representative: Int64
    }

    /// What intake answered for one report.
    public struct ReceiptJSON: Encodable, Sendable, Equatable {
        /// The report number.
        public var id: Int64
        /// The raw report's SHA-256.
        public var sha256: String
        /// Whether the same bytes were already stored.
        public var duplicate: Bool
        /// The report's status at that moment.
        public var status: String
    }

    /// An ingest key.
    public struct KeyJSON: Encodable, Sendable, Equatable {
        /// The key number.
        public var id: Int64
        /// The app.
        public var bundleID: String
        /// The key.
        public var key: String
        /// Created (ISO 8601).
        public var created: String
        /// Revoked (ISO 8601), if it was.
        public var revoked: String?
    }

    /// The JSON of a report; `uploads` adds each upload.
    public static func report(_ record: CrashRecord, uploads: [CrashUpload]? = nil) -> ReportJSON {
        ReportJSON(id: record.id, sha256: record.sha256, size: record.size, status: record.status.rawValue, kind: kind(record.status),
                   format: record.format, bugType: record.bugType, received: Timestamp.string(record.receivedAt),
                   lastReceived: Timestamp.string(record.lastReceivedAt), processed: record.processedAt.map(Timestamp.string),
                   error: record.error,
                   process: ProcessJSON(name: record.processName, bundleID: record.bundleID, version: record.appVersion, build: record.appBuild),
                   osVersion: record.osVersion, hardwareModel: record.hardwareModel, incidentIdentifier: record.incidentIdentifier,
                   crashed: record.crashedAt, exceptionType: record.exceptionType, summary: record.summary, group: record.signatureKey,
                   release: record.releaseID, tester: record.testerID.map { TesterRefJSON(id: $0, name: record.testerName) },
                   device: record.deviceUDID,
                   missingSymbols: record.missingSymbols.map { MissingImageJSON(name: $0.name, uuid: $0.uuid, architecture: $0.architecture) },
                   uploadCount: record.uploadCount, uploads: uploads?.map(upload))
    }

    /// `crash`, `low-memory`, `other` or `unknown`.
    public static func kind(_ status: CrashStatus) -> String {
        switch status {
        case .symbolicated, .partial: "crash"
        case .lowMemory: "low-memory"
        case .other: "other"
        case .queued, .unreadable: "unknown"
        }
    }

    /// The JSON of one upload.
    public static func upload(_ upload: CrashUpload) -> UploadJSON {
        UploadJSON(received: Timestamp.string(upload.receivedAt), source: upload.source.rawValue, testerID: upload.testerID, keyID: upload.keyID,
                   userID: upload.userID, contact: upload.contact, description: upload.description, fileName: upload.fileName)
    }

    /// The JSON of a group.
    public static func group(_ group: CrashGroup) -> GroupJSON {
        GroupJSON(signature: group.signatureKey, title: group.title, exceptionType: group.exceptionType, frames: group.frames, count: group.count,
                  firstSeen: Timestamp.string(group.firstSeenAt), lastSeen: Timestamp.string(group.lastSeenAt), releases: group.releaseIDs,
                  testers: group.testerIDs, representative: group.representativeID)
    }

    /// The JSON of a receipt.
    public static func receipt(_ receipt: CrashReceipt) -> ReceiptJSON {
        ReceiptJSON(id: receipt.reportID, sha256: receipt.sha256, duplicate: receipt.duplicate, status: receipt.status.rawValue)
    }

    /// The JSON of an ingest key.
    public static func key(_ key: CrashKey) -> KeyJSON {
        KeyJSON(id: key.id, bundleID: key.bundleID, key: key.key, created: Timestamp.string(key.createdAt), revoked: key.revokedAt.map(Timestamp.string))
    }
}
