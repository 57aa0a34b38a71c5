/// A CodeDirectory (0xfade0c02): the hashes of a Mach-O's pages and of the files and blobs its
/// signature binds (the special slots), plus the signing identifier and team.
///
/// Layout from xnu's `cs_blobs.h` (`CS_CodeDirectory`): every field is big-endian, and later
/// versions only append fields (scatter 0x20100, team 0x20200, 64-bit code limit 0x20300,
/// executable segment 0x20400).
public struct CodeDirectory: Sendable, Equatable {
    /// The digest a CodeDirectory uses for its slots.
    public enum HashType: UInt8, Sendable, Equatable, CustomStringConvertible {
        /// SHA-1, 20 bytes (the only one before iOS 11).
        case sha1 = 1
        /// SHA-256, 32 bytes.
        case sha256 = 2
        /// SHA-256 cut to 20 bytes.
        case sha256Truncated = 3
        /// SHA-384, 48 bytes (macOS only; betactl cannot compute it).
        case sha384 = 4

        /// The digest size in bytes.
        public var size: Int {
            switch self {
            case .sha1, .sha256Truncated: 20
            case .sha256: 32
            case .sha384: 48
            }
        }

        /// The name codesign prints.
        public var description: String {
            switch self {
            case .sha1: "SHA-1"
            case .sha256: "SHA-256"
            case .sha256Truncated: "SHA-256 (truncated)"
            case .sha384: "SHA-384"
            }
        }
    }

    /// Special slot numbers (negative indexes before the code slots).
    public enum SpecialSlot: Int, Sendable, CaseIterable, CustomStringConvertible {
        /// The bundle's Info.plist.
        case infoPlist = 1
        /// The requirements blob (0xfade0c01).
        case requirements = 2
        /// The bundle's `_CodeSignature/CodeResources`.
        case resourceDirectory = 3
        /// Application-specific data (unused on iOS).
        case application = 4
        /// The XML entitlements blob (0xfade7171).
        case entitlements = 5
        /// Representation-specific data (unused on iOS).
        case representationSpecific = 6
        /// The DER entitlements blob (0xfade7172).
        case derEntitlements = 7

        /// What the slot seals, for messages.
        public var description: String {
            switch self {
            case .infoPlist: "Info.plist"
            case .requirements: "requirements"
            case .resourceDirectory: "_CodeSignature/CodeResources"
            case .application: "application data"
            case .entitlements: "XML entitlements"
            case .representationSpecific: "representation data"
            case .derEntitlements: "DER entitlements"
            }
        }
    }

    /// The `CS_EXECSEG_MAIN_BINARY` flag of `execSegFlags`.
    public static let mainBinaryFlag: UInt64 = 0x1
    /// The `CS_EXECSEG_ALLOW_UNSIGNED` flag (debugging only; never in an ad hoc build).
    public static let allowUnsignedFlag: UInt64 = 0x10
    // Bounds on hostile counts: a 4 GB binary in 4 KB pages has a million slots.
    static let maxCodeSlots: UInt32 = 1 << 22
    static let maxSpecialSlots: UInt32 = 64

    /// The blob exactly as stored (its hash is the CDHash).
    public var bytes: [UInt8]
    /// The format version, such as 0x20400.
    public var version: UInt32
    /// The `CS_*` flags (0x2 ad hoc, 0x10000 runtime, …).
    public var flags: UInt32
    /// The signing identifier (usually the bundle identifier).
    public var identifier: String
    /// The team identifier (version 0x20200 and later).
    public var teamIdentifier: String?
    /// How many special slots precede the code slots.
    public var specialSlotCount: Int
    /// How many code slots (pages) there are.
    public var codeSlotCount: Int
    /// How many bytes of the image the code slots cover (where the signature starts).
    public var codeLimit: UInt64
    /// The digest used by every slot.
    public var hashType: HashType
    /// The digest size stored in the header.
    public var hashSize: Int
    /// The page size as a power of two (12 for 4096); 0 means one page for all the code.
    public var pageSizeLog2: UInt8
    /// The platform byte (0 for third-party code).
    public var platform: UInt8
    /// Where the hash array's slot 0 starts in `bytes`.
    public var hashOffset: Int
    /// The executable segment's start, size and flags (version 0x20400 and later).
    public var execSegBase: UInt64?, execSegLimit: UInt64?, execSegFlags: UInt64?

    /// The page size in bytes (the whole code for page size 0).
    public var pageSize: UInt64 { pageSizeLog2 == 0 ? max(codeLimit, 1) : UInt64(1) << UInt64(pageSizeLog2) }
}
