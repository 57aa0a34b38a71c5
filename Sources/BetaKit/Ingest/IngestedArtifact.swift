#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// What kind of input was ingested.
public enum ArtifactKind: String, Sendable, Codable {
    /// An exported .ipa.
    case ipa
    /// An .xcarchive, as a directory or zipped.
    case xcarchive
    /// One or more .dSYM bundles, as a directory or zipped.
    case dsym
}

/// One architecture slice of an executable or of a DWARF file.
public struct IngestedSlice: Sendable, Equatable {
    /// The CPU, such as arm64.
    public var architecture: MachOArchitecture
    /// The LC_UUID; nil when the image has none (then no dSYM can ever match it).
    public var uuid: UUID?
    /// The minimum OS from LC_BUILD_VERSION or LC_VERSION_MIN_*.
    public var minimumOS: String?
    /// The platform name ("iOS").
    public var platform: String?
    /// The entitlements the slice was signed with; nil when unsigned or without entitlements.
    public var entitlements: [String: PlistValue]?
    /// The signing identifier from the CodeDirectory.
    public var signingIdentifier: String?
}

/// The role of an executable inside an app.
public enum ExecutableKind: String, Sendable, Codable {
    /// The main app.
    case app
    /// An app extension (PlugIns/ or Extensions/).
    case appExtension = "extension"
    /// A watch app (Watch/).
    case watchApp = "watch-app"
    /// An App Clip (AppClips/).
    case appClip = "app-clip"
    /// An embedded framework (Frameworks/); symbols are wanted but not required.
    case framework
}

/// One executable of an app, with its slices.
public struct IngestedExecutable: Sendable, Equatable {
    /// The executable's role.
    public var kind: ExecutableKind
    /// The bundle's path inside the input, such as `Payload/Beta.app/PlugIns/BetaWidget.appex`.
    public var bundlePath: String
    /// The executable's path inside the input.
    public var path: String
    /// The bundle's identifier (from Info.plist).
    public var bundleIdentifier: String?
    /// The slices, in file order.
    public var slices: [IngestedSlice]
    /// The bundle's own embedded profile (extensions carry their own).
    public var profile: ProvisioningProfile?
    /// The executable's size in bytes.
    public var size: UInt64

    /// The file name of the executable.
    public var name: String { String(path.split(separator: "/").last ?? Substring(path)) }
}

/// An app bundle found in the input.
public struct IngestedApp: Sendable, Equatable {
    /// The `.app` directory's path inside the input.
    public var bundlePath: String
    /// The main Info.plist.
    public var info: BundleInfo
    /// The main app's embedded profile.
    public var profile: ProvisioningProfile?
    /// The main executable first, then extensions, watch apps, app clips and frameworks.
    public var executables: [IngestedExecutable]
    /// Every nested bundle (extensions, watch apps, App Clips, frameworks), also those whose
    /// executable is missing, in walk order.
    public var nestedBundles: [NestedBundle]
    /// The app icon converted to a standard PNG, when one was found and readable.
    public var iconPNG: [UInt8]?
    /// Things wrong inside the bundle that stop a release, for validation to report.
    public var problems: [IngestProblem]
    /// Things worth a warning that do not stop a release (an icon that cannot be converted).
    public var warnings: [IngestProblem]
    /// The code signature of the app and everything nested in it, verified as iOS does on
    /// install; nil when it was not checked.
    public var signature: BundleSignatureReport? = nil

    /// Whether the build is for the iOS simulator (its slices say so, or its Info.plist does).
    public var isSimulatorBuild: Bool {
        let platforms = executables.flatMap { $0.slices.compactMap(\.platform) }
        if !platforms.isEmpty { return platforms.allSatisfy { $0.hasSuffix("Simulator") } }
        return info.supportedPlatforms.contains("iPhoneSimulator")
    }
}

/// A bundle nested in an app (PlugIns/, Extensions/, Watch/, AppClips/, Frameworks/).
public struct NestedBundle: Sendable, Equatable {
    /// Its role.
    public var kind: ExecutableKind
    /// Its path inside the input.
    public var bundlePath: String
    /// Its bundle identifier, when its Info.plist could be read.
    public var bundleIdentifier: String?
    /// Its own embedded profile (frameworks have none).
    public var profile: ProvisioningProfile?
}

/// A DWARF file inside a dSYM bundle.
public struct IngestedDWARFFile: Sendable, Equatable {
    /// The dSYM bundle's path inside the input, such as `dSYMs/Beta.app.dSYM`.
    public var bundlePath: String
    /// The DWARF file's path inside the input.
    public var path: String
    /// The slices with their UUIDs.
    public var slices: [IngestedSlice]
    /// The file's size.
    public var size: UInt64
}

/// Everything read from one input path.
public struct IngestedArtifact: Sendable {
    /// The input's kind.
    public var kind: ArtifactKind
    /// The input path as given.
    public var path: String
    /// SHA-256 of the input file; nil for directory inputs.
    public var sha256: HashDigest?
    /// The input file's size; for directories the sum of the files read.
    public var size: UInt64
    /// The app, for ipa and xcarchive inputs.
    public var app: IngestedApp?
    /// Every DWARF file found (xcarchive dSYMs/ or dSYM inputs).
    public var dwarfFiles: [IngestedDWARFFile]
    /// Where each DWARF file's bytes can be read on disk, by input path: a temporary
    /// extraction for zip inputs (the caller deletes it), the original file for directories.
    public var dwarfLocations: [String: String]
}
