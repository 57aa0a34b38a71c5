/// A half-open address range `[low, high)`.
public struct DWARFRange: Equatable, Hashable, Sendable {
    /// The first address in the range.
    public var low: UInt64
    /// One past the last address.
    public var high: UInt64

    /// Creates a range.
    public init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// Whether `address` lies in the range.
    @inlinable
    public func contains(_ address: UInt64) -> Bool { low <= address && address < high }
}

extension DWARFUnit {
    // Lists longer than this are hostile; a function split into a million pieces is not real.
    static let maxRangeEntries = 1 << 20

    /// The ranges a `DW_AT_ranges` value names, read from `.debug_ranges` (DWARF 2 to 4) or
    /// `.debug_rnglists` (DWARF 5), with base-address entries applied.
    public func ranges(for value: DWARFValue, sections: DWARFSections) throws(DWARFError) -> [DWARFRange] {
        if header.format.version >= 5 {
            switch value {
            case let .rangeListIndex(index):
                guard let offset = rangeListOffset(index: index, sections: sections) else {
                    throw DWARFError.malformed(section: "__debug_rnglists", offset: rnglistsBase ?? 0, reason: "range list index \(index) is outside the offsets table")
                }
                return try rangeList(at: offset, sections: sections)
            default:
                guard let offset = value.unsignedValue else { return [] }
                return try rangeList(at: Int(clamping: offset), sections: sections)
            }
        }
        guard let offset = value.unsignedValue else { return [] }
        return try legacyRanges(at: Int(clamping: offset), sections: sections)
    }

    /// The absolute `.debug_rnglists` offset for a `DW_FORM_rnglistx` index.
    public func rangeListOffset(index: UInt64, sections: DWARFSections) -> Int? {
        let width = header.format.offsetSize
        let base = rnglistsBase ?? (width == 8 ? 20 : 12)
        guard index < UInt64(Int.max / 16) else { return nil }
        let (position, overflow) = base.addingReportingOverflow(Int(index) * width)
        guard !overflow else { return nil }
        var r = ByteReader(sections.rnglists, offset: position)
        guard let relative = try? r.uintLE(byteCount: width), relative <= UInt64(Int.max) else { return nil }
        let (absolute, overflow2) = base.addingReportingOverflow(Int(relative))
        return overflow2 ? nil : absolute
    }

    func legacyRanges(at offset: Int, sections: DWARFSections) throws(DWARFError) -> [DWARFRange] {
        let size = header.format.addressSize
        let maxAddress: UInt64 = size == 8 ? .max : (UInt64(1) << (UInt64(size) * 8)) - 1
        var base = baseAddress
        var result: [DWARFRange] = []
        var r = ByteReader(sections.ranges)
        do {
            try r.seek(to: offset)
            for _ in 0 ..< Self.maxRangeEntries {
                let start = try r.uintLE(byteCount: size)
                let end = try r.uintLE(byteCount: size)
                if start == 0 && end == 0 { return result }
                if start == maxAddress { base = end; continue }
                result.append(DWARFRange(low: base &+ start, high: base &+ end))
            }
        } catch {
            throw DWARFError.wrap(error, section: "__debug_ranges")
        }
        throw DWARFError.malformed(section: "__debug_ranges", offset: offset, reason: "the range list does not end")
    }

    func rangeList(at offset: Int, sections: DWARFSections) throws(DWARFError) -> [DWARFRange] {
        let size = header.format.addressSize
        var base = baseAddress
        var result: [DWARFRange] = []
        var r = ByteReader(sections.rnglists)
        func indexed(_ index: UInt64) throws(DWARFError) -> UInt64 {
            guard let value = address(index: index, sections: sections) else {
                throw DWARFError.malformed(section: "__debug_addr", offset: addrBase ?? 0, reason: "address index \(index) is outside the address pool")
            }
            return value
        }
        do {
            try r.seek(to: offset)
            for _ in 0 ..< Self.maxRangeEntries {
                let kind = try r.u8()
                switch kind {
                case 0:  // DW_RLE_end_of_list
                    return result
                case 1:  // DW_RLE_base_addressx
                    base = try indexed(try r.uleb128())
                case 2:  // DW_RLE_startx_endx
                    let start = try indexed(try r.uleb128()), end = try indexed(try r.uleb128())
                    result.append(DWARFRange(low: start, high: end))
                case 3:  // DW_RLE_startx_length
                    let start = try indexed(try r.uleb128())
                    result.append(DWARFRange(low: start, high: start &+ (try r.uleb128())))
                case 4:  // DW_RLE_offset_pair
                    let start = try r.uleb128(), end = try r.uleb128()
                    result.append(DWARFRange(low: base &+ start, high: base &+ end))
                case 5:  // DW_RLE_base_address
                    base = try r.uintLE(byteCount: size)
                case 6:  // DW_RLE_start_end
                    let start = try r.uintLE(byteCount: size), end = try r.uintLE(byteCount: size)
                    result.append(DWARFRange(low: start, high: end))
                case 7:  // DW_RLE_start_length
                    let start = try r.uintLE(byteCount: size)
                    result.append(DWARFRange(low: start, high: start &+ (try r.uleb128())))
                default:
                    throw DWARFError.malformed(section: "__debug_rnglists", offset: r.offset - 1, reason: "unknown range list entry kind \(kind)")
                }
            }
        } catch let error as DWARFError {
            throw error
        } catch let error as BinaryError {
            throw DWARFError.wrap(error, section: "__debug_rnglists")
        } catch {
            throw DWARFError.malformed(section: "__debug_rnglists", offset: offset, reason: "\(error)")
        }
        throw DWARFError.malformed(section: "__debug_rnglists", offset: offset, reason: "the range list does not end")
    }
}
