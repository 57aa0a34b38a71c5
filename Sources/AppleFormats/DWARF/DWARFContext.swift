/// Random access to the units of one image's DWARF, with the caches that make repeated
/// lookups cheap (abbreviation tables, unit entries, resolved subroutine names).
///
/// The context borrows `sections`; it is a reference type only so its caches can fill in as
/// it is used, and it is meant for one task at a time.
public final class DWARFContext {
    /// The sections read.
    public let sections: DWARFSections
    /// Every unit header, in section order.
    public let unitHeaders: [DWARFUnitHeader]
    /// Why the header walk stopped early, if it did (the units before the damage are kept).
    public let unitHeaderError: DWARFError?

    struct AbbreviationKey: Hashable {
        var offset: Int
        var format: DWARFFormat
    }

    struct EntryNames {
        var linkage: DWARFStringRef?
        var short: DWARFStringRef?
    }

    private var abbreviationCache: [AbbreviationKey: DWARFAbbreviationTable] = [:]
    private var unitCache: [Int: DWARFUnit] = [:]
    private var nameCache: [Int: EntryNames] = [:]
    // Bound the caches so indexing a huge dSYM keeps a flat memory profile.
    static let maxCachedNames = 1 << 20
    static let maxCachedUnits = 4096

    /// Creates a context and reads the unit headers.
    public init(sections: DWARFSections) {
        self.sections = sections
        (unitHeaders, unitHeaderError) = DWARFUnitHeader.all(in: sections.info)
    }

    /// The abbreviation table at `offset` for units of `format`.
    public func abbreviations(at offset: Int, format: DWARFFormat) throws(DWARFError) -> DWARFAbbreviationTable {
        let key = AbbreviationKey(offset: offset, format: format)
        if let cached = abbreviationCache[key] { return cached }
        let table = try DWARFAbbreviationTable(section: sections.abbrev, offset: offset, format: format)
        abbreviationCache[key] = table
        return table
    }

    /// The unit at `index` of `unitHeaders`, with its unit entry read.
    public func unit(at index: Int) throws(DWARFError) -> DWARFUnit {
        if let cached = unitCache[index] { return cached }
        let header = unitHeaders[index]
        let table = try abbreviations(at: header.abbrevOffset, format: header.format)
        let unit = try DWARFUnit(header: header, abbreviations: table, sections: sections)
        if unitCache.count >= Self.maxCachedUnits { unitCache.removeAll(keepingCapacity: true) }
        unitCache[index] = unit
        return unit
    }

    /// The index of the unit whose entries include `offset` in `.debug_info`.
    public func unitIndex(containing offset: Int) -> Int? {
        var low = 0, high = unitHeaders.count
        while low < high {
            let mid = (low + high) / 2
            if unitHeaders[mid].end <= offset { low = mid + 1 } else { high = mid }
        }
        guard low < unitHeaders.count, unitHeaders[low].firstEntryOffset <= offset else { return nil }
        return low
    }

    /// The name llvm-symbolizer reports for a subroutine: the linkage (mangled) name if the
    /// entry or anything it refers to through `DW_AT_specification` or `DW_AT_abstract_origin`
    /// has one, else the plain `DW_AT_name` found the same way.
    func subroutineName(linkage: DWARFStringRef?, name: DWARFStringRef?, origin: Int?, specification: Int?) -> DWARFStringRef? {
        if let linkage { return linkage }
        let targets = [specification, origin].compactMap { $0 }.map { resolvedNames(at: $0, depth: 0) }
        for target in targets { if let found = target.linkage { return found } }
        if let name { return name }
        for target in targets { if let found = target.short { return found } }
        return nil
    }

    /// The resolved names of the entry at `offset`, following specification and abstract origin.
    func resolvedNames(at offset: Int, depth: Int) -> EntryNames {
        if let cached = nameCache[offset] { return cached }
        // A chain this deep is a reference cycle in corrupt data.
        guard depth < 16, let own = try? entryNames(at: offset) else { return EntryNames() }
        var result = EntryNames(linkage: own.linkage, short: own.name)
        if result.linkage == nil || result.short == nil {
            for target in [own.specification, own.origin].compactMap({ $0 }) where target != offset {
                let found = resolvedNames(at: target, depth: depth + 1)
                if result.linkage == nil { result.linkage = found.linkage }
                if result.short == nil { result.short = found.short }
            }
        }
        if nameCache.count >= Self.maxCachedNames { nameCache.removeAll(keepingCapacity: true) }
        nameCache[offset] = result
        return result
    }

    struct OwnNames {
        var linkage: DWARFStringRef?
        var name: DWARFStringRef?
        var origin: Int?
        var specification: Int?
    }

    /// The naming attributes of the single entry at `offset`, wherever its unit is.
    func entryNames(at offset: Int) throws -> OwnNames {
        guard let index = unitIndex(containing: offset) else {
            throw DWARFError.malformed(section: "__debug_info", offset: offset, reason: "a reference points outside every unit")
        }
        let unit = try unit(at: index)
        var r = try ByteReader(sections.info).slice(at: 0, count: unit.header.end)
        r.offset = offset
        let code = try r.uleb128()
        guard code != 0, let abbreviation = unit.abbreviations.abbreviation(code) else {
            throw DWARFError.malformed(section: "__debug_info", offset: offset, reason: "a reference points at no entry")
        }
        var result = OwnNames()
        for spec in abbreviation.specs {
            switch spec.attribute {
            case DWARFAttribute.linkageName, DWARFAttribute.mipsLinkageName, DWARFAttribute.name,
                 DWARFAttribute.abstractOrigin, DWARFAttribute.specification:
                let value = try unit.value(form: spec.form, implicitConst: spec.implicitConst, reader: &r, sections: sections)
                switch (spec.attribute, value) {
                case (DWARFAttribute.mipsLinkageName, .string(let s)): result.linkage = s
                case (DWARFAttribute.linkageName, .string(let s)): if result.linkage == nil { result.linkage = s }
                case (DWARFAttribute.name, .string(let s)): result.name = s
                case (DWARFAttribute.abstractOrigin, .reference(let target)): result.origin = target
                case (DWARFAttribute.specification, .reference(let target)): result.specification = target
                default: break
                }
            default:
                try unit.format.skip(form: spec.form, in: &r)
            }
        }
        return result
    }
}
