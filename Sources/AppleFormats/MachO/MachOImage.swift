#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One thin Mach-O image: its header and the load commands betactl cares about.
///
/// Parsing is eager but shallow: it records where things are (sections, symbol
/// table, code signature) and leaves their contents to the specialised readers.
public struct MachOImage: Sendable {
    static let magic32: UInt32 = 0xfeed_face
    static let magic64: UInt32 = 0xfeed_facf
    // Real binaries have a few dozen load commands; this bounds work on hostile input.
    static let maxLoadCommands: UInt32 = 4096

    /// The CPU of this image.
    public var architecture: MachOArchitecture
    /// Whether the header is the 64-bit variant.
    public var is64Bit: Bool
    /// The `filetype` field (2 = executable, 6 = dylib, 10 = dSYM companion, …).
    public var fileType: UInt32
    /// The `flags` field.
    public var flags: UInt32
    /// The image's LC_UUID, which ties an executable to its dSYM.
    public var uuid: UUID?
    /// The platform and minimum OS from LC_BUILD_VERSION or LC_VERSION_MIN_*.
    public var buildVersion: BuildVersion?
    /// Every segment, with its sections, in load-command order.
    public var segments: [Segment]
    /// The LC_SYMTAB command, if any.
    public var symbolTable: SymbolTableCommand?
    /// The LC_CODE_SIGNATURE blob's location, if the image is signed.
    public var codeSignature: LinkEditData?
    /// The install names of dylibs this image links (LC_LOAD_DYLIB and friends).
    public var linkedLibraries: [String]
    /// The image's own install name (LC_ID_DYLIB), for frameworks and dylibs.
    public var installName: String?
    /// The `cryptid` of LC_ENCRYPTION_INFO(_64): nonzero when the App Store encrypted the code (FairPlay).
    public var encryptionID: UInt32?

    /// A segment load command and its sections.
    public struct Segment: Sendable, Equatable {
        /// The segment name, such as `__TEXT` or `__DWARF`.
        public var name: String
        /// The segment's address in the image's preferred layout.
        public var vmAddress: UInt64
        /// The segment's size in memory.
        public var vmSize: UInt64
        /// Where its bytes start in the slice.
        public var fileOffset: UInt64
        /// How many bytes it occupies in the slice.
        public var fileSize: UInt64
        /// The sections inside the segment.
        public var sections: [Section]
    }

    /// A section header. Names are cut to 16 bytes, as Mach-O stores them (`__debug_str_offs`).
    public struct Section: Sendable, Equatable {
        /// The section name, at most 16 characters.
        public var name: String
        /// The segment the section belongs to.
        public var segmentName: String
        /// The section's address.
        public var address: UInt64
        /// The section's size.
        public var size: UInt64
        /// Where its bytes start in the slice (0 for zero-fill sections).
        public var fileOffset: UInt32
    }

    /// The LC_SYMTAB command.
    public struct SymbolTableCommand: Sendable, Equatable {
        /// Offset of the nlist array in the slice.
        public var symbolOffset: UInt32
        /// Number of nlist entries.
        public var symbolCount: UInt32
        /// Offset of the string table in the slice.
        public var stringOffset: UInt32
        /// Size of the string table.
        public var stringSize: UInt32
    }

    /// A `linkedit_data_command`: a blob in `__LINKEDIT`.
    public struct LinkEditData: Sendable, Equatable {
        /// Offset of the blob in the slice.
        public var offset: UInt32
        /// Size of the blob.
        public var size: UInt32
    }

    /// Platform and minimum OS version.
    public struct BuildVersion: Sendable, Equatable {
        /// The platform number (1 macOS, 2 iOS, 3 tvOS, 4 watchOS, 6 Mac Catalyst, 7 iOS simulator, 11 visionOS).
        public var platform: UInt32
        /// The minimum OS version as "major.minor[.patch]".
        public var minimumOS: String
        /// The SDK version as "major.minor[.patch]".
        public var sdk: String

        /// A short platform name such as "iOS" or "watchOS".
        public var platformName: String {
            switch platform {
            case 1: "macOS"
            case 2: "iOS"
            case 3: "tvOS"
            case 4: "watchOS"
            case 5: "bridgeOS"
            case 6: "Mac Catalyst"
            case 7: "iOS Simulator"
            case 8: "tvOS Simulator"
            case 9: "watchOS Simulator"
            case 11: "visionOS"
            case 12: "visionOS Simulator"
            default: "platform \(platform)"
            }
        }
    }

    /// The first section named `name` (compared after cutting to 16 characters), optionally within `segment`.
    public func section(named name: String, segment: String? = nil) -> Section? {
        let wanted = String(name.utf8.prefix(16)) ?? name
        for seg in segments where segment == nil || seg.name == segment {
            if let found = seg.sections.first(where: { $0.name == wanted }) { return found }
        }
        return nil
    }

    /// The segment named `name`, such as `__TEXT`.
    public func segment(named name: String) -> Segment? {
        segments.first { $0.name == name }
    }

    /// Formats a packed `xxxx.yy.zz` version number.
    static func versionString(_ packed: UInt32) -> String {
        let major = packed >> 16, minor = (packed >> 8) & 0xff, patch = packed & 0xff
        return patch == 0 ? "\(major).\(minor)" : "\(major).\(minor).\(patch)"
    }
}
