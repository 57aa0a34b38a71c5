/// Where a string lives: DWARF strings are read lazily, by location, so that indexing a large
/// dSYM does not allocate a Swift `String` for every name it passes.
public enum DWARFStringRef: Hashable, Sendable {
    /// An inline `DW_FORM_string` at this offset of `.debug_info`.
    case info(Int)
    /// An offset into `.debug_str`.
    case str(Int)
    /// An offset into `.debug_line_str`.
    case lineStr(Int)
    /// An inline string in a line-table header at this offset of `.debug_line` (DWARF 2 to 4).
    case line(Int)

    /// A unique 64-bit key for the location, usable as a dictionary key.
    public var key: UInt64 {
        switch self {
        case let .info(offset): return UInt64(truncatingIfNeeded: offset) << 3 | 1
        case let .str(offset): return UInt64(truncatingIfNeeded: offset) << 3 | 2
        case let .lineStr(offset): return UInt64(truncatingIfNeeded: offset) << 3 | 3
        case let .line(offset): return UInt64(truncatingIfNeeded: offset) << 3 | 4
        }
    }
}

/// A decoded attribute value, with unit-relative references and indexes already resolved
/// where that needs nothing but the unit.
public enum DWARFValue: Equatable, Sendable {
    /// An address (`DW_FORM_addr`, or `addrx*` resolved through `.debug_addr`).
    case address(UInt64)
    /// An unsigned constant or flag.
    case unsigned(UInt64)
    /// A signed constant (`sdata`, `implicit_const`).
    case signed(Int64)
    /// An absolute offset in `.debug_info` of another entry.
    case reference(Int)
    /// An offset into another section (`sec_offset`; in DWARF 2 and 3 also `data4`/`data8`).
    case sectionOffset(UInt64)
    /// A string.
    case string(DWARFStringRef)
    /// A `DW_FORM_rnglistx` index into the unit's range list offsets table.
    case rangeListIndex(UInt64)
    /// A block of bytes (`block*`, `exprloc`, `data16`) at this `.debug_info` offset.
    case block(offset: Int, count: Int)
    /// A value this reader does not interpret (supplementary-file references, type signatures,
    /// location list indexes, or an index the unit cannot resolve).
    case other

    /// The value as an unsigned integer, for constant-class attributes.
    public var unsignedValue: UInt64? {
        switch self {
        case let .unsigned(value): return value
        case let .signed(value): return UInt64(bitPattern: value)
        case let .sectionOffset(value): return value
        default: return nil
        }
    }
}
