extension DWARFContext {
    // Nesting deeper than this is hostile input, not code.
    static let maxDepth = 4096

    private struct Pending {
        var node: DWARFSubroutine
        var linkage: DWARFStringRef?
        var name: DWARFStringRef?
        var origin: Int?
        var specification: Int?
    }

    /// Reads the unit at `index`: its subroutines (with names resolved) and its line table.
    /// Damage inside the unit gives a partial summary with the error recorded; only a unit
    /// whose own entry cannot be read throws.
    public func summary(ofUnitAt index: Int) throws(DWARFError) -> DWARFUnitSummary {
        let unit = try unit(at: index)
        var summary = DWARFUnitSummary(unit: unit, compilationDirectory: unit.compilationDirectory.flatMap { sections.string($0) },
                                       subroutines: [], ranges: [], lineTable: nil, errors: [])
        if let offset = unit.lineTableOffset {
            do { summary.lineTable = try DWARFLineTable(sections: sections, offset: offset, unit: unit) } catch { summary.errors.append(error) }
        }
        guard !unit.header.isTypeUnit else { return summary }
        var pending: [Pending] = []
        do {
            try collect(unit: unit, into: &pending, ranges: &summary.ranges)
        } catch {
            summary.errors.append(error)
        }
        summary.subroutines.reserveCapacity(pending.count)
        for item in pending {
            var node = item.node
            node.name = subroutineName(linkage: item.linkage, name: item.name, origin: item.origin, specification: item.specification)
            summary.subroutines.append(node)
        }
        return summary
    }

    private func collect(unit: DWARFUnit, into nodes: inout [Pending], ranges: inout [DWARFRange]) throws(DWARFError) {
        let header = unit.header
        let format = header.format
        var r: ByteReader
        do { r = try ByteReader(sections.info).slice(at: 0, count: header.end) } catch { throw DWARFError.wrap(error, section: "__debug_info") }
        r.offset = header.firstEntryOffset
        // For each open entry with children: the subroutine it is (or -1), and the nearest
        // enclosing subroutine for its children.
        var open: [(node: Int, enclosing: Int)] = []
        var entryOffset = r.offset
        func close(_ index: Int) {
            guard index >= 0 else { return }
            nodes[index].node.subtreeEnd = nodes.count
            // An entry with no code and no inlined calls inside is of no use for lookups.
            if nodes[index].node.rangeCount == 0 && nodes.count == index + 1 { nodes.removeLast() }
        }
        do {
            while r.offset < header.end {
                entryOffset = r.offset
                let code = try r.uleb128()
                if code == 0 {
                    if let last = open.popLast() { close(last.node) }
                    continue
                }
                guard let abbreviation = unit.abbreviations.abbreviation(code) else {
                    throw DWARFError.malformed(section: "__debug_info", offset: entryOffset, reason: "unknown abbreviation code \(code)")
                }
                let enclosing = open.last?.enclosing ?? -1
                let tag = abbreviation.tag
                guard tag == DWARFTag.subprogram || tag == DWARFTag.inlinedSubroutine else {
                    if let size = abbreviation.fixedSize {
                        try r.skip(size)
                    } else {
                        for spec in abbreviation.specs { try format.skip(form: spec.form, in: &r) }
                    }
                    if abbreviation.hasChildren { open.append((-1, enclosing)) }
                    if open.count > Self.maxDepth { throw DWARFError.malformed(section: "__debug_info", offset: entryOffset, reason: "entries nest more than \(Self.maxDepth) deep") }
                    continue
                }
                var item = try subroutine(at: entryOffset, abbreviation: abbreviation, unit: unit, reader: &r, ranges: &ranges)
                item.node.parent = tag == DWARFTag.subprogram ? -1 : enclosing
                let index = nodes.count
                nodes.append(item)
                if abbreviation.hasChildren {
                    open.append((index, index))
                    if open.count > Self.maxDepth { throw DWARFError.malformed(section: "__debug_info", offset: entryOffset, reason: "entries nest more than \(Self.maxDepth) deep") }
                } else {
                    close(index)
                }
            }
        } catch let error as DWARFError {
            while let last = open.popLast() { close(last.node) }
            throw error
        } catch let error as BinaryError {
            while let last = open.popLast() { close(last.node) }
            throw DWARFError.wrap(error, section: "__debug_info")
        } catch {
            while let last = open.popLast() { close(last.node) }
            throw DWARFError.malformed(section: "__debug_info", offset: entryOffset, reason: "\(error)")
        }
        while let last = open.popLast() { close(last.node) }
    }

    private func subroutine(at offset: Int, abbreviation: DWARFAbbreviation, unit: DWARFUnit, reader r: inout ByteReader,
                            ranges: inout [DWARFRange]) throws -> Pending {
        var item = Pending(node: DWARFSubroutine(entryOffset: offset, isInlined: abbreviation.tag == DWARFTag.inlinedSubroutine,
                                                 parent: -1, subtreeEnd: 0, rangeStart: ranges.count, rangeCount: 0,
                                                 name: nil, callFile: 0, callLine: 0, callColumn: 0))
        var low: UInt64?, high: DWARFValue?, rangesValue: DWARFValue?
        for spec in abbreviation.specs {
            switch spec.attribute {
            case DWARFAttribute.lowPC, DWARFAttribute.highPC, DWARFAttribute.ranges, DWARFAttribute.name,
                 DWARFAttribute.linkageName, DWARFAttribute.mipsLinkageName, DWARFAttribute.abstractOrigin,
                 DWARFAttribute.specification, DWARFAttribute.callFile, DWARFAttribute.callLine, DWARFAttribute.callColumn:
                let value = try unit.value(form: spec.form, implicitConst: spec.implicitConst, reader: &r, sections: sections)
                switch spec.attribute {
                case DWARFAttribute.lowPC: if case let .address(a) = value { low = a }
                case DWARFAttribute.highPC: high = value
                case DWARFAttribute.ranges: rangesValue = value
                case DWARFAttribute.name: if case let .string(s) = value { item.name = s }
                case DWARFAttribute.mipsLinkageName: if case let .string(s) = value { item.linkage = s }
                case DWARFAttribute.linkageName: if case let .string(s) = value, item.linkage == nil { item.linkage = s }
                case DWARFAttribute.abstractOrigin: if case let .reference(t) = value { item.origin = t }
                case DWARFAttribute.specification: if case let .reference(t) = value { item.specification = t }
                case DWARFAttribute.callFile: item.node.callFile = value.unsignedValue ?? 0
                case DWARFAttribute.callLine: item.node.callLine = value.unsignedValue ?? 0
                default: item.node.callColumn = value.unsignedValue ?? 0
                }
            default:
                try unit.format.skip(form: spec.form, in: &r)
            }
        }
        // Low and high PC win over DW_AT_ranges, as in llvm-symbolizer.
        var found: [DWARFRange] = []
        if let low, let high {
            switch high {
            case let .address(end): found = [DWARFRange(low: low, high: end)]
            case .unsigned, .signed, .sectionOffset: found = [DWARFRange(low: low, high: low &+ (high.unsignedValue ?? 0))]
            default: break
            }
        } else if let rangesValue {
            found = (try? unit.ranges(for: rangesValue, sections: sections)) ?? []
        }
        for range in found where range.low < range.high { ranges.append(range) }
        item.node.rangeCount = ranges.count - item.node.rangeStart
        return item
    }
}
