import AppleFormats
import BetaKit

/// JSON shapes printed by the profile, release and symbol commands. Field names are part of betactl's interface.
enum ArchiveJSON {
    struct ProfileJSON: Encodable {
        var uuid: String
        var name: String
        var team: String
        var applicationIdentifier: String?
        var type: String
        var devices: Int?
        var expires: String
        var imported: String
    }

    struct CertificateJSON: Encodable {
        var commonName: String?
        var subject: String
        var serial: String
        var notBefore: String
        var notAfter: String
        var sha1: String
    }

    struct CheckProfileJSON: Encodable {
        var profile: ProfileJSON
        var daysUntilExpiry: Int
        var missingDevices: [MissingDeviceJSON]
        var unknownDevices: [String]
        var removedDevices: [String]
        var certificates: [CertificateJSON]
        var findings: [FindingJSON]
        var ok: Bool
    }

    struct MissingDeviceJSON: Encodable {
        var udid: String
        var name: String
        var tester: String?
    }

    struct FindingJSON: Encodable {
        var severity: String
        var message: String
    }

    struct ReleaseJSON: Encodable {
        var id: Int64
        var bundleId: String
        var name: String?
        var version: String?
        var build: String?
        var minimumOS: String?
        var source: String
        var sha256: String
        var profile: String?
        var profileType: String?
        var profileExpires: String?
        var groups: [String]
        var notes: String?
        var created: String
        var revoked: String?
        var installPage: String
        var slices: [SliceJSON]?
    }

    struct SliceJSON: Encodable {
        var path: String
        var kind: String
        var bundleId: String?
        var arch: String
        var uuid: String?
        var minimumOS: String?
        var hasSymbols: Bool
    }

    struct SymbolJSON: Encodable {
        var uuid: String
        var arch: String
        var dsym: String
        var file: String
        var path: String
        var added: String
        var releases: [Int64]
    }

    struct SymbolsJSON: Encodable {
        var symbols: [SymbolJSON]
        var missing: [MissingSymbolJSON]
    }

    struct MissingSymbolJSON: Encodable {
        var release: Int64
        var path: String
        var arch: String
        var uuid: String?
    }

    static func profile(_ stored: StoredProfile) -> ProfileJSON {
        ProfileJSON(uuid: stored.uuid, name: stored.name, team: stored.teamID, applicationIdentifier: stored.applicationIdentifier,
                    type: stored.type.rawValue, devices: stored.deviceCount, expires: Timestamp.string(stored.expiresAt),
                    imported: Timestamp.string(stored.importedAt))
    }

    static func certificate(_ certificate: Certificate) -> CertificateJSON {
        CertificateJSON(commonName: certificate.subject.commonName, subject: certificate.subject.description, serial: certificate.serialNumberHex,
                        notBefore: Timestamp.string(certificate.notBefore), notAfter: Timestamp.string(certificate.notAfter),
                        sha1: certificate.sha1Fingerprint.colonSeparatedHex)
    }

    static func release(_ release: Release, publicURL: String, slices: [ReleaseSlice]? = nil) -> ReleaseJSON {
        ReleaseJSON(id: release.id, bundleId: release.bundleID, name: release.displayName, version: release.version, build: release.build,
                    minimumOS: release.minimumOS, source: release.sourceName, sha256: release.packageBlob.hex, profile: release.profileName,
                    profileType: release.profileType?.rawValue, profileExpires: release.profileExpiresAt.map(Timestamp.string),
                    groups: release.groups, notes: release.notes, created: Timestamp.string(release.createdAt),
                    revoked: release.revokedAt.map(Timestamp.string), installPage: installPage(release.id, publicURL: publicURL),
                    slices: slices?.map { SliceJSON(path: $0.path, kind: $0.kind, bundleId: $0.bundleID, arch: $0.architecture, uuid: $0.uuid,
                                                   minimumOS: $0.minimumOS, hasSymbols: $0.hasSymbols) })
    }

    /// The release's install page on the server.
    static func installPage(_ id: Int64, publicURL: String) -> String { "\(publicURL)/r/\(id)" }
}
