import AppleFormats
import BetaKit

/// JSON shapes of profiles, releases and symbols, printed by the CLI's `--json` and answered by the
/// API. Field names are part of betactl's interface: add fields, never rename them.
public enum ArchiveJSON {
    /// An imported provisioning profile.
    public struct ProfileJSON: Encodable, Sendable {
        /// The profile's UUID.
        public var uuid: String
        /// Its name.
        public var name: String
        /// The team id.
        public var team: String
        /// The application-identifier entitlement, e.g. `ABCDE12345.com.example.app`.
        public var applicationIdentifier: String?
        /// `ad-hoc`, `development`, `app-store` or `enterprise`.
        public var type: String
        /// How many devices it provisions; absent when it has no device list.
        public var devices: Int?
        /// When it expires (ISO 8601).
        public var expires: String
        /// When it was imported (ISO 8601).
        public var imported: String
    }

    /// A signing certificate carried in a profile.
    public struct CertificateJSON: Encodable, Sendable {
        /// The subject's common name.
        public var commonName: String?
        /// The whole subject.
        public var subject: String
        /// The serial number, hex.
        public var serial: String
        /// Start of validity (ISO 8601).
        public var notBefore: String
        /// End of validity (ISO 8601).
        public var notAfter: String
        /// The SHA-1 fingerprint, colon-separated hex (as Keychain Access shows it).
        public var sha1: String
    }

    /// What `check-profile` found.
    public struct CheckProfileJSON: Encodable, Sendable {
        /// The profile checked.
        public var profile: ProfileJSON
        /// Days until it expires (negative once expired).
        public var daysUntilExpiry: Int
        /// Active roster devices the profile lacks.
        public var missingDevices: [MissingDeviceJSON]
        /// UDIDs in the profile that the roster does not know.
        public var unknownDevices: [String]
        /// UDIDs in the profile whose roster device was removed.
        public var removedDevices: [String]
        /// Devices testers registered themselves that no ad hoc profile includes yet.
        public var pendingDevices: [MissingDeviceJSON] = []
        /// The profile's certificates.
        public var certificates: [CertificateJSON]
        /// Every finding, most severe first.
        public var findings: [FindingJSON]
        /// True when nothing needs attention.
        public var ok: Bool
    }

    /// An active device missing from a profile.
    public struct MissingDeviceJSON: Encodable, Sendable {
        /// The UDID.
        public var udid: String
        /// The device's name.
        public var name: String
        /// Its tester's name.
        public var tester: String?
    }

    /// One finding of a check.
    public struct FindingJSON: Encodable, Sendable {
        /// `error`, `warning` or `info`.
        public var severity: String
        /// One sentence naming the problem and the fix.
        public var message: String
    }

    /// A release.
    public struct ReleaseJSON: Encodable, Sendable {
        /// The release number.
        public var id: Int64
        /// CFBundleIdentifier.
        public var bundleId: String
        /// The app's display name.
        public var name: String?
        /// CFBundleShortVersionString.
        public var version: String?
        /// CFBundleVersion.
        public var build: String?
        /// MinimumOSVersion.
        public var minimumOS: String?
        /// The file it was released from.
        public var source: String
        /// The SHA-256 of the archived package (the exact bytes testers download).
        public var sha256: String
        /// The embedded profile's name.
        public var profile: String?
        /// The embedded profile's type.
        public var profileType: String?
        /// When the embedded profile expires (ISO 8601).
        public var profileExpires: String?
        /// The groups it targets; empty means everyone.
        public var groups: [String]
        /// Who it is offered to: testers reach it through their own page, never a shared link.
        public var offeredTo: OfferJSON
        /// Release notes.
        public var notes: String?
        /// When it was published (ISO 8601).
        public var created: String
        /// When it was revoked (ISO 8601), if it was.
        public var revoked: String?
        /// The release it was re-signed from (`resign`), if it was.
        public var resignedFrom: Int64?
        /// The re-signed release that took this one's place on testers' pages (automatic provisioning), if one did.
        public var supersededBy: Int64?
        /// Its executables and whether their symbols are archived (in `show-release`).
        public var slices: [SliceJSON]?
        /// Completed downloads (in `show-release`).
        public var downloads: [DownloadJSON]?
        /// How many downloads completed (API release lists; absent elsewhere).
        public var downloadCount: Int? = nil
    }

    /// Who a release is offered to.
    public struct OfferJSON: Encodable, Sendable {
        /// True when it targets no group, so every tester sees it.
        public var everyone: Bool
        /// The groups it targets.
        public var groups: [String]
        /// The current testers who see it on their page (none once revoked).
        public var testers: [TesterRefJSON]
    }

    /// A tester named by id and name.
    public struct TesterRefJSON: Encodable, Sendable {
        /// The tester's number.
        public var id: Int64
        /// The tester's name.
        public var name: String
    }

    /// One completed download.
    public struct DownloadJSON: Encodable, Sendable {
        /// The tester's number, when it came through a tester's link.
        public var testerId: Int64?
        /// The tester's name.
        public var tester: String?
        /// The device, when the installer's request singled one out.
        public var udid: String?
        /// That device's name.
        public var device: String?
        /// When the last byte went out (ISO 8601).
        public var at: String
    }

    /// One executable slice of a release.
    public struct SliceJSON: Encodable, Sendable {
        /// The executable's path inside the build.
        public var path: String
        /// `app`, `app-extension`, `framework`, …
        public var kind: String
        /// The executable's bundle id.
        public var bundleId: String?
        /// The architecture.
        public var arch: String
        /// The LC_UUID.
        public var uuid: String?
        /// The minimum OS.
        public var minimumOS: String?
        /// Whether its dSYM is archived.
        public var hasSymbols: Bool
    }

    /// An archived DWARF slice.
    public struct SymbolJSON: Encodable, Sendable {
        /// The image UUID.
        public var uuid: String
        /// The architecture.
        public var arch: String
        /// The dSYM bundle's name.
        public var dsym: String
        /// The DWARF file's name.
        public var file: String
        /// Where the DWARF file is stored.
        public var path: String
        /// When it was archived (ISO 8601).
        public var added: String
        /// Releases with an executable of this UUID.
        public var releases: [Int64]
    }

    /// What `symbols` prints.
    public struct SymbolsJSON: Encodable, Sendable {
        /// Archived symbols.
        public var symbols: [SymbolJSON]
        /// Release executables still lacking symbols.
        public var missing: [MissingSymbolJSON]
    }

    /// A release executable without archived symbols.
    public struct MissingSymbolJSON: Encodable, Sendable {
        /// The release number.
        public var release: Int64
        /// The executable's path.
        public var path: String
        /// The architecture.
        public var arch: String
        /// The LC_UUID.
        public var uuid: String?
    }

    /// The JSON of an imported profile.
    public static func profile(_ stored: StoredProfile) -> ProfileJSON {
        ProfileJSON(uuid: stored.uuid, name: stored.name, team: stored.teamID, applicationIdentifier: stored.applicationIdentifier,
                    type: stored.type.rawValue, devices: stored.deviceCount, expires: Timestamp.string(stored.expiresAt),
                    imported: Timestamp.string(stored.importedAt))
    }

    /// The JSON of a certificate.
    public static func certificate(_ certificate: Certificate) -> CertificateJSON {
        CertificateJSON(commonName: certificate.subject.commonName, subject: certificate.subject.description, serial: certificate.serialNumberHex,
                        notBefore: Timestamp.string(certificate.notBefore), notAfter: Timestamp.string(certificate.notAfter),
                        sha1: certificate.sha1Fingerprint.colonSeparatedHex)
    }

    /// The JSON of a release; `testers` are the current testers, of whom those it is offered to are listed.
    public static func release(_ release: Release, testers: [Tester], slices: [ReleaseSlice]? = nil,
                               downloads: [DownloadRecord]? = nil) -> ReleaseJSON {
        let offered = release.revokedAt == nil ? testers.filter { release.isOffered(to: $0) } : []
        return ReleaseJSON(
            id: release.id, bundleId: release.bundleID, name: release.displayName, version: release.version, build: release.build,
            minimumOS: release.minimumOS, source: release.sourceName, sha256: release.packageBlob.hex, profile: release.profileName,
            profileType: release.profileType?.rawValue, profileExpires: release.profileExpiresAt.map(Timestamp.string),
            groups: release.groups,
            offeredTo: OfferJSON(everyone: release.groups.isEmpty, groups: release.groups,
                                 testers: offered.map { TesterRefJSON(id: $0.id, name: $0.name) }),
            notes: release.notes, created: Timestamp.string(release.createdAt),
            revoked: release.revokedAt.map(Timestamp.string), resignedFrom: release.resignedFrom, supersededBy: release.supersededBy,
            slices: slices?.map { SliceJSON(path: $0.path, kind: $0.kind, bundleId: $0.bundleID, arch: $0.architecture, uuid: $0.uuid,
                                           minimumOS: $0.minimumOS, hasSymbols: $0.hasSymbols) },
            downloads: downloads?.map { DownloadJSON(testerId: $0.testerID, tester: $0.testerName, udid: $0.udid, device: $0.deviceName,
                                                     at: Timestamp.string($0.downloadedAt)) })
    }

    /// The JSON of a profile check against the roster.
    public static func check(_ report: ProfileRosterReport, stored: StoredProfile) -> CheckProfileJSON {
        CheckProfileJSON(
            profile: profile(stored), daysUntilExpiry: report.daysUntilExpiry,
            missingDevices: report.missingActiveDevices.map { MissingDeviceJSON(udid: $0.identifier.value, name: $0.name, tester: $0.testerName) },
            unknownDevices: report.unknownDevices.map(\.value), removedDevices: report.removedDevices.map(\.identifier.value),
            pendingDevices: report.pendingDevices.map { MissingDeviceJSON(udid: $0.identifier.value, name: $0.name, tester: $0.testerName) },
            certificates: report.profile.developerCertificates.map(certificate),
            findings: report.findings.map { FindingJSON(severity: $0.severity.rawValue, message: $0.message) }, ok: !report.hasErrors)
    }

    /// The JSON of the archived symbols and the release executables still lacking them.
    public static func symbols(_ entries: [SymbolEntry], missing: [(releaseID: Int64, slice: ReleaseSlice)]) -> SymbolsJSON {
        SymbolsJSON(
            symbols: entries.map { SymbolJSON(uuid: $0.uuid, arch: $0.architecture, dsym: $0.dsymName, file: $0.fileName, path: $0.path,
                                              added: Timestamp.string($0.addedAt), releases: $0.releaseIDs) },
            missing: missing.map { MissingSymbolJSON(release: $0.releaseID, path: $0.slice.path, arch: $0.slice.architecture, uuid: $0.slice.uuid) })
    }

    /// "everyone (3 testers)" or "groups qa, design (2 testers: Ann Lee, Bo Chen)": who sees a release.
    public static func offerSummary(_ release: Release, testers: [Tester]) -> String {
        if release.revokedAt != nil { return "nobody (revoked)" }
        let offered = testers.filter { release.isOffered(to: $0) }
        let who = offered.isEmpty ? "no current testers" : offered.count <= 5
            ? "\(offered.count) tester\(offered.count == 1 ? "" : "s"): \(offered.map(\.name).joined(separator: ", "))"
            : "\(offered.count) testers"
        return release.groups.isEmpty ? "everyone (\(who))"
            : "group\(release.groups.count == 1 ? "" : "s") \(release.groups.joined(separator: ", ")) (\(who))"
    }
}
