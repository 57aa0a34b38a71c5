#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// A published build.
public struct Release: Sendable, Equatable {
    /// The release number.
    public var id: Int64
    /// The app's bundle identifier.
    public var bundleID: String
    /// The app's display name.
    public var displayName: String?
    /// CFBundleShortVersionString.
    public var version: String?
    /// CFBundleVersion.
    public var build: String?
    /// MinimumOSVersion.
    public var minimumOS: String?
    /// ipa or xcarchive.
    public var sourceKind: ArtifactKind
    /// The input's file name.
    public var sourceName: String
    /// The archived ipa: the input itself, or for an .xcarchive an ipa packaged from its app.
    public var packageBlob: HashDigest
    /// The converted icon, if any.
    public var iconBlob: HashDigest?
    /// The embedded profile's UUID, name, type and expiry.
    public var profileUUID: String?
    /// The embedded profile's name.
    public var profileName: String?
    /// The embedded profile's type.
    public var profileType: ProfileType?
    /// The embedded profile's expiry.
    public var profileExpiresAt: Date?
    /// Release notes.
    public var notes: String?
    /// Groups the release targets; empty means everyone.
    public var groups: [String]
    /// When it was published.
    public var createdAt: Date
    /// When it was revoked, if it was.
    public var revokedAt: Date?
    /// The release this one re-signed (`resign`), if it is one.
    public var resignedFrom: Int64? = nil
    /// The re-signed release that took this one's place on testers' pages (the automatic
    /// provisioning flow's), while that one is not revoked; nil otherwise.
    public var supersededBy: Int64? = nil
}

/// One executable slice of a release and whether its symbols are archived.
public struct ReleaseSlice: Sendable, Equatable {
    /// The executable's path inside the build.
    public var path: String
    /// The executable's role.
    public var kind: String
    /// Its bundle id.
    public var bundleID: String?
    /// The architecture name.
    public var architecture: String
    /// The LC_UUID.
    public var uuid: String?
    /// Minimum OS.
    public var minimumOS: String?
    /// Whether symbols for (uuid, architecture) are in the archive.
    public var hasSymbols: Bool
}

/// An archived DWARF slice and the releases whose executables it symbolicates.
public struct SymbolEntry: Sendable, Equatable {
    /// The image UUID.
    public var uuid: String
    /// The architecture name.
    public var architecture: String
    /// The dSYM bundle it came from.
    public var dsymName: String
    /// The DWARF file's name.
    public var fileName: String
    /// Where the DWARF file is stored.
    public var path: String
    /// When it was added.
    public var addedAt: Date
    /// Releases with an executable slice of this UUID.
    public var releaseIDs: [Int64]
}
