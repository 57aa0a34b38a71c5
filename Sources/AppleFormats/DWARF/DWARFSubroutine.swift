/// A function body or inlined call site with code addresses: a `DW_TAG_subprogram` or
/// `DW_TAG_inlined_subroutine` entry, flattened for lookup.
public struct DWARFSubroutine: Sendable, Equatable {
    /// The entry's offset in `.debug_info`.
    public var entryOffset: Int
    /// Whether this is an inlined call (`DW_TAG_inlined_subroutine`).
    public var isInlined: Bool
    /// The index of the subroutine this one was inlined into, or -1. A subprogram always has -1:
    /// an inlined chain stops at the first real function.
    public var parent: Int
    /// One past the index of the last subroutine nested inside this entry (its subtree in
    /// depth-first order is `index ..< subtreeEnd`).
    public var subtreeEnd: Int
    /// This subroutine's ranges: `ranges[rangeStart ..< rangeStart + rangeCount]` of its summary.
    public var rangeStart: Int
    /// The number of ranges; 0 for an entry kept only because inlined calls sit inside it.
    public var rangeCount: Int
    /// The name (linkage name preferred, through abstract origin and specification).
    public var name: DWARFStringRef?
    /// For an inlined call: the file register value of the call site.
    public var callFile: UInt64
    /// For an inlined call: the call site's line.
    public var callLine: UInt64
    /// For an inlined call: the call site's column.
    public var callColumn: UInt64
}

/// What one compile unit says about code addresses: its subroutines and its line table.
public struct DWARFUnitSummary: Sendable {
    /// The unit.
    public var unit: DWARFUnit
    /// The unit's `DW_AT_comp_dir`, decoded.
    public var compilationDirectory: String?
    /// Subroutines with code (or with inlined calls inside), in depth-first order.
    public var subroutines: [DWARFSubroutine]
    /// The ranges the subroutines refer to.
    public var ranges: [DWARFRange]
    /// The unit's line table, if it has one and it could be read.
    public var lineTable: DWARFLineTable?
    /// Problems met while reading; the summary holds what came before them.
    public var errors: [DWARFError]

    /// The absolute path for file register value `index` of the unit's line table.
    public func path(ofFile index: UInt64, sections: DWARFSections) -> String? {
        lineTable?.path(ofFile: index, compilationDirectory: compilationDirectory, strings: sections)
    }
}
