/// The header of one unit in `.debug_info`.
public struct DWARFUnitHeader: Sendable, Equatable {
    /// Where the unit starts (its `unit_length` field).
    public var offset: Int
    /// One past the unit's last byte.
    public var end: Int
    /// Version, address size and offset size.
    public var format: DWARFFormat
    /// The DWARF 5 unit type (`DW_UT_compile` = 1 for older versions).
    public var unitType: UInt8
    /// Where the unit's abbreviation table starts in `.debug_abbrev`.
    public var abbrevOffset: Int
    /// Where the first entry (the unit entry) starts.
    public var firstEntryOffset: Int

    /// `DW_UT_type` and `DW_UT_split_type` units describe types only.
    public var isTypeUnit: Bool { unitType == 2 || unitType == 6 }

    /// Reads the header at `offset` in `info`.
    public init(info: UnsafeRawBufferPointer, offset: Int) throws(DWARFError) {
        do {
            self = try Self.read(info: info, offset: offset)
        } catch let error as DWARFError {
            throw error
        } catch let error as BinaryError {
            throw DWARFError.wrap(error, section: "__debug_info")
        } catch {
            throw DWARFError.malformed(section: "__debug_info", offset: offset, reason: "\(error)")
        }
    }

    init(offset: Int, end: Int, format: DWARFFormat, unitType: UInt8, abbrevOffset: Int, firstEntryOffset: Int) {
        self.offset = offset
        self.end = end
        self.format = format
        self.unitType = unitType
        self.abbrevOffset = abbrevOffset
        self.firstEntryOffset = firstEntryOffset
    }

    private static func read(info: UnsafeRawBufferPointer, offset: Int) throws -> DWARFUnitHeader {
        var r = ByteReader(info)
        let unitType: UInt8, abbrevOffset: Int
        do {
            try r.seek(to: offset)
            let initial = try DWARFInitialLength.read(&r, section: "__debug_info", offset: offset, what: "unit")
            let offsetSize = initial.offsetSize
            let end = r.offset + initial.length
            let version = try r.u16le()
            guard (2 ... 5).contains(version) else {
                throw DWARFError.unsupportedVersion(section: "__debug_info", offset: offset, version: Int(version))
            }
            let addressSize: Int
            if version >= 5 {
                unitType = try r.u8()
                addressSize = Int(try r.u8())
                abbrevOffset = Int(clamping: try r.uintLE(byteCount: offsetSize))
                switch unitType {
                case 2, 6: try r.skip(8 + offsetSize)  // type signature, type offset
                case 4, 5: try r.skip(8)  // dwo id
                default: break
                }
            } else {
                unitType = 1
                abbrevOffset = Int(clamping: try r.uintLE(byteCount: offsetSize))
                addressSize = Int(try r.u8())
            }
            guard [1, 2, 4, 8].contains(addressSize) else {
                throw DWARFError.malformed(section: "__debug_info", offset: offset, reason: "address size \(addressSize) is not 1, 2, 4 or 8")
            }
            guard r.offset <= end else {
                throw DWARFError.malformed(section: "__debug_info", offset: offset, reason: "the unit header is longer than the unit")
            }
            return DWARFUnitHeader(offset: offset, end: end, format: DWARFFormat(version: version, addressSize: addressSize, offsetSize: offsetSize),
                                   unitType: unitType, abbrevOffset: abbrevOffset, firstEntryOffset: r.offset)
        }
    }

    /// Every unit header in `info`, in order. A damaged header ends the walk: the units before
    /// it are returned together with the error, since the next unit cannot be found without it.
    public static func all(in info: UnsafeRawBufferPointer) -> (headers: [DWARFUnitHeader], error: DWARFError?) {
        var headers: [DWARFUnitHeader] = []
        var offset = 0
        while offset < info.count {
            do {
                let header = try DWARFUnitHeader(info: info, offset: offset)
                headers.append(header)
                offset = header.end
            } catch {
                return (headers, error)
            }
        }
        return (headers, nil)
    }
}
