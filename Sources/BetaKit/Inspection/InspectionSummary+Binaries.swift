#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// The `ipa`, `xcarchive` and `app` kinds.
public struct BundleSummary: Encodable, Sendable, Equatable {
    /// The main app's bundle identifier.
    public var bundleId: String
    /// Its display name.
    public var name: String?
    /// `CFBundleShortVersionString`.
    public var version: String?
    /// `CFBundleVersion`.
    public var build: String?
    /// `MinimumOSVersion`.
    public var minimumOS: String?
    /// One entry per architecture slice of every executable, main app first.
    public var executables: [ExecutableSummary]
    /// The main app's embedded profile.
    public var profile: ProfileSummary?
    /// App extensions, watch apps and App Clips, with their own profiles.
    public var extensions: [ExtensionSummary]
    /// Whether an app icon was found and could be read.
    public var icon: Bool
    /// The dSYMs an `.xcarchive` holds.
    public var dsyms: [MachOSliceSummary]
    /// SHA-256 of the file (zipped inputs only).
    public var sha256: String?
    /// The input's size in bytes.
    public var size: UInt64
    /// What is wrong inside the bundle (missing profile, unreadable executable, …).
    public var problems: [String]
    /// The code signature's structure and whether iOS would accept it.
    public var signature: CodeSignatureSummary?
}

/// One architecture slice of one executable in a bundle.
public struct ExecutableSummary: Encodable, Sendable, Equatable {
    /// The executable's path inside the input.
    public var path: String
    /// `app`, `extension`, `watch-app`, `app-clip` or `framework`.
    public var kind: String
    /// Its bundle's identifier.
    public var bundleId: String?
    /// The slice's architecture.
    public var arch: String
    /// The slice's LC_UUID.
    public var uuid: String?
    /// The CodeDirectory's signing identifier.
    public var signingIdentifier: String?
    /// The minimum OS from the load commands.
    public var minimumOS: String?
    /// The entitlements the slice was signed with; nil when unsigned.
    public var entitlements: [String: PlistJSON]?

    /// Summarises one slice of `executable`.
    public init(_ executable: IngestedExecutable, slice: IngestedSlice) {
        path = executable.path
        kind = executable.kind.rawValue
        bundleId = executable.bundleIdentifier
        arch = slice.architecture.name
        uuid = slice.uuid?.uuidString
        signingIdentifier = slice.signingIdentifier
        minimumOS = slice.minimumOS
        entitlements = slice.entitlements.map(PlistJSON.dictionary)
    }
}

/// A nested bundle (extension, watch app, App Clip).
public struct ExtensionSummary: Encodable, Sendable, Equatable {
    /// `extension`, `watch-app` or `app-clip`.
    public var kind: String
    /// Its bundle identifier.
    public var bundleId: String?
    /// Its bundle's path inside the input.
    public var path: String
    /// Its own embedded profile's name, UUID and type.
    public var profile: String?
}

/// One slice of a Mach-O or DWARF file.
public struct MachOSliceSummary: Encodable, Sendable, Equatable {
    /// The file the slice is in (inside a bundle or zip), when not the inspected file itself.
    public var path: String?
    /// The architecture.
    public var arch: String
    /// The LC_UUID.
    public var uuid: String?
    /// `executable`, `dylib`, `bundle`, `dsym`, `object`, … from the header's filetype.
    public var fileType: String
    /// The DWARF versions of the units in `__debug_info`, when there is debug information.
    public var dwarfVersions: [Int]?
    /// The code signature's identifier, when signed.
    public var identifier: String?
    /// The code signature's team, when signed with a team.
    public var team: String?
    /// The platform from LC_BUILD_VERSION.
    public var platform: String?
    /// The minimum OS.
    public var minimumOS: String?
    /// What could not be read in this slice.
    public var problem: String?

    /// Creates a slice summary.
    public init(path: String? = nil, arch: String, uuid: String?, fileType: String, dwarfVersions: [Int]? = nil, identifier: String? = nil,
                team: String? = nil, platform: String? = nil, minimumOS: String? = nil, problem: String? = nil) {
        self.path = path
        self.arch = arch
        self.uuid = uuid
        self.fileType = fileType
        self.dwarfVersions = dwarfVersions
        self.identifier = identifier
        self.team = team
        self.platform = platform
        self.minimumOS = minimumOS
        self.problem = problem
    }
}

/// The `dsym` and `macho` kinds.
public struct MachOSummary: Encodable, Sendable, Equatable {
    /// Whether the file has a fat header (for a dSYM bundle: whether any DWARF file has).
    public var fat: Bool
    /// Every slice, with its UUID and architecture.
    public var slices: [MachOSliceSummary]
    /// The input's size in bytes.
    public var size: UInt64
    /// The code signature's structure and whether it verifies, for a signed Mach-O (its bundle's
    /// Info.plist and resources are not checked on their own).
    public var signature: CodeSignatureSummary? = nil
}

extension MachOSliceSummary {
    /// The name of a Mach-O `filetype`.
    static func fileTypeName(_ type: UInt32) -> String {
        switch type {
        case 1: "object"
        case 2: "executable"
        case 6: "dylib"
        case 7: "dylinker"
        case 8: "bundle"
        case 9: "dylib-stub"
        case 10: "dsym"
        case 11: "kext-bundle"
        default: "filetype \(type)"
        }
    }

    /// Reads every slice of the Mach-O file in `bytes`: UUID, architecture, DWARF versions and
    /// the code signature's identifier and team. A damaged slice is listed with its problem.
    static func slices(of bytes: UnsafeRawBufferPointer, path: String?) throws(MachOError) -> (fat: Bool, slices: [MachOSliceSummary]) {
        let file = try MachOFile(bytes: bytes)
        var result: [MachOSliceSummary] = []
        for slice in file.slices {
            let sliceBytes = MachOFile.bytes(of: slice, in: bytes)
            let image: MachOImage
            do { image = try MachOImage(bytes: sliceBytes) } catch {
                result.append(MachOSliceSummary(path: path, arch: slice.architecture.name, uuid: nil, fileType: "unknown", problem: error.description))
                continue
            }
            var summary = MachOSliceSummary(path: path, arch: image.architecture.name, uuid: image.uuid?.uuidString,
                                            fileType: fileTypeName(image.fileType), platform: image.buildVersion?.platformName,
                                            minimumOS: image.buildVersion?.minimumOS)
            let sections = DWARFSections(image: image, bytes: sliceBytes)
            if sections.hasDebugInfo {
                let context = DWARFContext(sections: sections)
                summary.dwarfVersions = Array(Set(context.unitHeaders.map { Int($0.format.version) })).sorted()
                if let error = context.unitHeaderError { summary.problem = "debug information: \(error)" }
            }
            if let signature = image.codeSignatureBytes(in: sliceBytes) {
                do {
                    let parsed = try CodeSignature(bytes: signature)
                    summary.identifier = parsed.identifier
                    summary.team = parsed.teamIdentifier
                } catch {
                    summary.problem = "code signature: \(error)"
                }
            } else if image.codeSignature != nil {
                summary.problem = "LC_CODE_SIGNATURE points outside the file"
            }
            result.append(summary)
        }
        return (file.isFat, result)
    }
}
