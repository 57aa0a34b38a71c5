/// A unit of `.debug_info` with what its unit entry says: name, directories and the bases
/// that DWARF 5 index forms are relative to.
public struct DWARFUnit: Sendable {
    /// The unit header.
    public var header: DWARFUnitHeader
    /// The unit's abbreviation table.
    public var abbreviations: DWARFAbbreviationTable
    /// The unit entry's tag (`DW_TAG_compile_unit`, `partial_unit`, …).
    public var tag: UInt64 = 0
    /// `DW_AT_name`: usually the main source file.
    public var name: DWARFStringRef?
    /// `DW_AT_comp_dir`: the directory relative paths start from.
    public var compilationDirectory: DWARFStringRef?
    /// `DW_AT_stmt_list`: the line program's offset in `.debug_line`.
    public var lineTableOffset: Int?
    /// `DW_AT_low_pc` of the unit: the base for range lists.
    public var baseAddress: UInt64 = 0
    /// `DW_AT_str_offsets_base`.
    public var strOffsetsBase: Int?
    /// `DW_AT_addr_base`.
    public var addrBase: Int?
    /// `DW_AT_rnglists_base`.
    public var rnglistsBase: Int?
    /// The unit entry's own `DW_AT_ranges` value, if any.
    public var rangesValue: DWARFValue?
    /// The unit entry's `DW_AT_high_pc` value, if any.
    public var highPCValue: DWARFValue?
    /// Whether the unit entry had `DW_AT_low_pc`.
    public var hasLowPC = false

    /// The encoding parameters.
    public var format: DWARFFormat { header.format }

    /// Reads the unit entry of the unit described by `header`.
    public init(header: DWARFUnitHeader, abbreviations: DWARFAbbreviationTable, sections: DWARFSections) throws(DWARFError) {
        self.header = header
        self.abbreviations = abbreviations
        guard header.firstEntryOffset < header.end else { return }
        do {
            var r = try ByteReader(sections.info).slice(at: 0, count: header.end)
            r.offset = header.firstEntryOffset
            let code = try r.uleb128()
            guard code != 0 else { return }
            guard let abbreviation = abbreviations.abbreviation(code) else {
                throw DWARFError.malformed(section: "__debug_info", offset: header.firstEntryOffset, reason: "unknown abbreviation code \(code)")
            }
            tag = abbreviation.tag
            // Bases can follow the attributes that need them, so collect raw values first.
            var pending: [(UInt64, UInt64, DWARFValue)] = []
            for spec in abbreviation.specs {
                let value = try rawValue(form: spec.form, implicitConst: spec.implicitConst, reader: &r, sections: sections)
                switch spec.attribute {
                case DWARFAttribute.strOffsetsBase: strOffsetsBase = value.unsignedValue.map { Int(clamping: $0) }
                case DWARFAttribute.addrBase, DWARFAttribute.gnuAddrBase: addrBase = value.unsignedValue.map { Int(clamping: $0) }
                case DWARFAttribute.rnglistsBase, DWARFAttribute.gnuRangesBase: rnglistsBase = value.unsignedValue.map { Int(clamping: $0) }
                default: pending.append((spec.attribute, spec.form, value))
                }
            }
            for (attribute, form, raw) in pending {
                let value = resolve(raw, form: form, sections: sections)
                switch attribute {
                case DWARFAttribute.name: if case let .string(s) = value { name = s }
                case DWARFAttribute.compDir: if case let .string(s) = value { compilationDirectory = s }
                case DWARFAttribute.stmtList: lineTableOffset = value.unsignedValue.map { Int(clamping: $0) }
                case DWARFAttribute.lowPC:
                    if case let .address(a) = value { baseAddress = a; hasLowPC = true }
                case DWARFAttribute.highPC: highPCValue = value
                case DWARFAttribute.ranges: rangesValue = value
                default: break
                }
            }
        } catch let error as DWARFError {
            throw error
        } catch let error as BinaryError {
            throw DWARFError.wrap(error, section: "__debug_info")
        } catch {
            throw DWARFError.malformed(section: "__debug_info", offset: header.firstEntryOffset, reason: "\(error)")
        }
    }

    /// Decodes one attribute value at the reader, resolving index forms through this unit's bases.
    public func value(form: UInt64, implicitConst: Int64, reader: inout ByteReader, sections: DWARFSections) throws(BinaryError) -> DWARFValue {
        resolve(try rawValue(form: form, implicitConst: implicitConst, reader: &reader, sections: sections), form: form, sections: sections)
    }

    // Index forms are returned as `.unsigned(index)` here and resolved by `resolve`.
    func rawValue(form: UInt64, implicitConst: Int64, reader r: inout ByteReader, sections: DWARFSections) throws(BinaryError) -> DWARFValue {
        let f = header.format
        switch form {
        case DWARFForm.addr: return .address(try r.uintLE(byteCount: f.addressSize))
        case DWARFForm.data1, DWARFForm.flag: return .unsigned(UInt64(try r.u8()))
        case DWARFForm.data2: return .unsigned(UInt64(try r.u16le()))
        case DWARFForm.data4: return f.version <= 3 ? .sectionOffset(UInt64(try r.u32le())) : .unsigned(UInt64(try r.u32le()))
        case DWARFForm.data8: return f.version <= 3 ? .sectionOffset(try r.u64le()) : .unsigned(try r.u64le())
        case DWARFForm.udata: return .unsigned(try r.uleb128())
        case DWARFForm.sdata: return .signed(try r.sleb128())
        case DWARFForm.implicitConst: return .signed(implicitConst)
        case DWARFForm.flagPresent: return .unsigned(1)
        case DWARFForm.secOffset: return .sectionOffset(try r.uintLE(byteCount: f.offsetSize))
        case DWARFForm.string:
            let start = r.offset
            while try r.u8() != 0 {}
            return .string(.info(start))
        case DWARFForm.strp: return .string(.str(Int(clamping: try r.uintLE(byteCount: f.offsetSize))))
        case DWARFForm.lineStrp: return .string(.lineStr(Int(clamping: try r.uintLE(byteCount: f.offsetSize))))
        case DWARFForm.ref1: return .reference(header.offset &+ Int(try r.u8()))
        case DWARFForm.ref2: return .reference(header.offset &+ Int(try r.u16le()))
        case DWARFForm.ref4: return .reference(header.offset &+ Int(try r.u32le()))
        case DWARFForm.ref8: return .reference(Self.add(header.offset, try r.u64le()))
        case DWARFForm.refUdata: return .reference(Self.add(header.offset, try r.uleb128()))
        case DWARFForm.refAddr:
            return .reference(Int(clamping: try r.uintLE(byteCount: f.version <= 2 ? f.addressSize : f.offsetSize)))
        case DWARFForm.strx, DWARFForm.gnuStrIndex, DWARFForm.addrx, DWARFForm.gnuAddrIndex, DWARFForm.rnglistx:
            return .unsigned(try r.uleb128())
        case DWARFForm.strx1, DWARFForm.addrx1: return .unsigned(UInt64(try r.u8()))
        case DWARFForm.strx2, DWARFForm.addrx2: return .unsigned(UInt64(try r.u16le()))
        case DWARFForm.strx3, DWARFForm.addrx3: return .unsigned(try r.uintLE(byteCount: 3))
        case DWARFForm.strx4, DWARFForm.addrx4: return .unsigned(UInt64(try r.u32le()))
        case DWARFForm.block, DWARFForm.exprloc:
            let count = try DWARFFormat.length(try r.uleb128(), at: r.offset)
            let start = r.offset
            try r.skip(count)
            return .block(offset: start, count: count)
        case DWARFForm.block1, DWARFForm.block2, DWARFForm.block4, DWARFForm.data16:
            let count: Int
            switch form {
            case DWARFForm.block1: count = Int(try r.u8())
            case DWARFForm.block2: count = Int(try r.u16le())
            case DWARFForm.block4: count = Int(try r.u32le())
            default: count = 16
            }
            let start = r.offset
            try r.skip(count)
            return .block(offset: start, count: count)
        case DWARFForm.indirect:
            let actual = try r.uleb128()
            guard actual != DWARFForm.indirect, actual != DWARFForm.implicitConst else {
                throw BinaryError.invalid(at: r.offset, "DW_FORM_indirect names form 0x\(String(actual, radix: 16))")
            }
            return resolve(try rawValue(form: actual, implicitConst: 0, reader: &r, sections: sections), form: actual, sections: sections)
        default:
            try f.skip(form: form, in: &r)
            return .other
        }
    }

    func resolve(_ raw: DWARFValue, form: UInt64, sections: DWARFSections) -> DWARFValue {
        guard case let .unsigned(index) = raw else { return raw }
        switch form {
        case DWARFForm.strx, DWARFForm.gnuStrIndex, DWARFForm.strx1, DWARFForm.strx2, DWARFForm.strx3, DWARFForm.strx4:
            return stringOffset(index: index, sections: sections).map { .string(.str($0)) } ?? .other
        case DWARFForm.addrx, DWARFForm.gnuAddrIndex, DWARFForm.addrx1, DWARFForm.addrx2, DWARFForm.addrx3, DWARFForm.addrx4:
            return address(index: index, sections: sections).map { .address($0) } ?? .other
        case DWARFForm.rnglistx:
            return .rangeListIndex(index)
        default:
            return raw
        }
    }

    static func add(_ base: Int, _ value: UInt64) -> Int {
        guard value <= UInt64(Int.max) else { return Int.max }
        let (sum, overflow) = base.addingReportingOverflow(Int(value))
        return overflow ? Int.max : sum
    }

    /// The `.debug_str` offset stored at `index` of this unit's string offsets table.
    public func stringOffset(index: UInt64, sections: DWARFSections) -> Int? {
        // DWARF 5 without DW_AT_str_offsets_base: the table follows its 8-byte header.
        let base = strOffsetsBase ?? (header.format.offsetSize == 8 ? 16 : 8)
        let width = header.format.offsetSize
        guard index < UInt64(Int.max / 16) else { return nil }
        let (position, overflow) = base.addingReportingOverflow(Int(index) * width)
        guard !overflow, position >= 0 else { return nil }
        var r = ByteReader(sections.strOffsets, offset: position)
        return (try? r.uintLE(byteCount: width)).map { Int(clamping: $0) }
    }

    /// The address stored at `index` of this unit's `.debug_addr` pool.
    public func address(index: UInt64, sections: DWARFSections) -> UInt64? {
        let base = addrBase ?? 8
        let width = header.format.addressSize
        guard index < UInt64(Int.max / 16) else { return nil }
        let (position, overflow) = base.addingReportingOverflow(Int(index) * width)
        guard !overflow, position >= 0 else { return nil }
        var r = ByteReader(sections.addr, offset: position)
        return try? r.uintLE(byteCount: width)
    }
}
