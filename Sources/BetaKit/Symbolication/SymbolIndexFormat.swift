/// The on-disk layout of a symbol index (`*.symidx` in the symbol cache).
///
/// A file is a fixed header, a section directory, and sections of fixed-size little-endian
/// records, each section 8-byte aligned so the reader can load records in place from a
/// memory mapping. Lookups binary-search the sorted sections; nothing is parsed up front.
/// Bump `version` whenever any layout or meaning changes: older files are then rebuilt.
enum SymbolIndexFormat {
    static let magic: [UInt8] = Array("BKSYMIDX".utf8)
    // 3: the header records the source file and whether its debug information was damaged.
    static let version: UInt32 = 3
    static let headerSize = 128
    static let directoryEntrySize = 24
    // Header field offsets.
    static let versionOffset = 8
    static let headerSizeOffset = 12
    static let uuidOffset = 16
    static let cpuTypeOffset = 32
    static let cpuSubtypeOffset = 36
    static let textAddressOffset = 40
    static let sourceSizeOffset = 48
    static let sectionCountOffset = 56
    static let flagsOffset = 60
    static let checksumOffset = 64
    // Where the index came from (version 3): the number of problems the build skipped, and the
    // source file (path as a string offset, then what stat(2) said about it).
    static let problemCountOffset = 72
    static let sourcePathOffset = 76
    static let sourceFileSizeOffset = 80
    static let sourceModifiedSecondsOffset = 88
    static let sourceModifiedNanosecondsOffset = 96
    static let sourceInodeOffset = 104
    static let sourceDeviceOffset = 112

    /// Header flags.
    enum Flag {
        /// Parts of the debug information could not be read and were skipped.
        static let damagedDebugInfo: UInt32 = 1
        /// The source fields are filled in.
        static let hasSource: UInt32 = 2
    }

    /// The kinds of section, in the order the writer emits them.
    enum Section: UInt32, CaseIterable {
        /// NUL-terminated names and paths.
        case strings = 1
        /// `UInt32` string offsets of source file paths.
        case files = 2
        /// `UInt32` row addresses, each relative to its sequence's low address, sequence by sequence.
        case rowAddresses = 3
        /// `RowInfo` records parallel to `rowAddresses`.
        case rowInfo = 4
        /// `Sequence` records sorted by low address.
        case sequences = 5
        /// `Node` records: subroutines in depth-first order.
        case nodes = 6
        /// `Range` records referenced by nodes.
        case nodeRanges = 7
        /// `RootRange` records sorted by low address: where lookups start.
        case roots = 8
        /// `Symbol` records from the Mach-O symbol table, sorted by address.
        case symbols = 9

        /// The size of one record (1 for the string blob).
        var recordSize: Int {
            switch self {
            case .strings: 1
            case .files: 4
            case .rowAddresses: 4
            case .rowInfo: 12
            case .sequences: 32
            case .nodes: 32
            case .nodeRanges: 16
            case .roots: 32
            case .symbols: 24
            }
        }
    }

    /// "No string" / "no file".
    static let none: UInt32 = .max
    /// Set in `RowInfo.flags` for the row that ends a sequence.
    static let endSequenceFlag: UInt16 = 1

    // Record layouts (byte offsets within a record):
    // RowInfo:   file u32 @0, line u32 @4, column u16 @8 (clamped), flags u16 @10
    //            Consecutive rows of a sequence with the same file, line and column are stored once:
    //            a lookup takes the last row at or below the address, so they cannot change an answer.
    // Sequence:  low u64 @0, high u64 @8, maxHighSoFar u64 @16, firstRow u32 @24, rowCount u32 @28
    // Node:      name u32 @0, parent i32 @4, subtreeEnd u32 @8, rangeStart u32 @12, rangeCount u32 @16,
    //            callFile u32 @20, callLine u32 @24, callColumn u32 @28
    // Range:     low u64 @0, high u64 @8
    // RootRange: low u64 @0, high u64 @8, maxHighSoFar u64 @16, node u32 @24, reserved u32 @28
    // Symbol:    address u64 @0, end u64 @8, name u64 @16 (a string offset)

    /// FNV-1a, 64-bit: cheap integrity check of the header and directory.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
