/// The encoding parameters of a unit: they decide how wide addresses and offsets are.
public struct DWARFFormat: Hashable, Sendable {
    /// The DWARF version (2 to 5).
    public var version: UInt16
    /// The size of a target address: 4 or 8 (2 and 1 are legal, if rare).
    public var addressSize: Int
    /// The size of a section offset: 4 for 32-bit DWARF, 8 for 64-bit DWARF.
    public var offsetSize: Int

    /// Creates a format.
    public init(version: UInt16, addressSize: Int, offsetSize: Int) {
        self.version = version
        self.addressSize = addressSize
        self.offsetSize = offsetSize
    }

    /// The encoded size of `form`, or nil when it varies (LEB128, strings, blocks).
    @inlinable
    public func fixedSize(of form: UInt64) -> Int? {
        switch form {
        case DWARFForm.flagPresent, DWARFForm.implicitConst: return 0
        case DWARFForm.data1, DWARFForm.ref1, DWARFForm.flag, DWARFForm.strx1, DWARFForm.addrx1: return 1
        case DWARFForm.data2, DWARFForm.ref2, DWARFForm.strx2, DWARFForm.addrx2: return 2
        case DWARFForm.strx3, DWARFForm.addrx3: return 3
        case DWARFForm.data4, DWARFForm.ref4, DWARFForm.strx4, DWARFForm.addrx4, DWARFForm.refSup4: return 4
        case DWARFForm.data8, DWARFForm.ref8, DWARFForm.refSig8, DWARFForm.refSup8: return 8
        case DWARFForm.data16: return 16
        case DWARFForm.addr: return addressSize
        case DWARFForm.strp, DWARFForm.secOffset, DWARFForm.lineStrp, DWARFForm.strpSup,
             DWARFForm.gnuRefAlt, DWARFForm.gnuStrpAlt:
            return offsetSize
        case DWARFForm.refAddr: return version <= 2 ? addressSize : offsetSize
        default: return nil
        }
    }

    /// Advances `reader` past one value of `form`.
    @inlinable
    public func skip(form: UInt64, in reader: inout ByteReader) throws(BinaryError) {
        if let size = fixedSize(of: form) {
            try reader.skip(size)
            return
        }
        switch form {
        case DWARFForm.udata, DWARFForm.refUdata, DWARFForm.strx, DWARFForm.addrx, DWARFForm.loclistx,
             DWARFForm.rnglistx, DWARFForm.gnuAddrIndex, DWARFForm.gnuStrIndex:
            _ = try reader.uleb128()
        case DWARFForm.sdata:
            _ = try reader.sleb128()
        case DWARFForm.string:
            while try reader.u8() != 0 {}
        case DWARFForm.block, DWARFForm.exprloc:
            try reader.skip(try Self.length(try reader.uleb128(), at: reader.offset))
        case DWARFForm.block1:
            try reader.skip(Int(try reader.u8()))
        case DWARFForm.block2:
            try reader.skip(Int(try reader.u16le()))
        case DWARFForm.block4:
            try reader.skip(Int(try reader.u32le()))
        case DWARFForm.indirect:
            let actual = try reader.uleb128()
            guard actual != DWARFForm.indirect else {
                throw BinaryError.invalid(at: reader.offset, "DW_FORM_indirect refers to itself")
            }
            try skip(form: actual, in: &reader)
        default:
            throw BinaryError.invalid(at: reader.offset, "unknown attribute form 0x\(String(form, radix: 16))")
        }
    }

    @inlinable
    static func length(_ value: UInt64, at offset: Int) throws(BinaryError) -> Int {
        guard value <= UInt64(Int32.max) else { throw BinaryError.invalid(at: offset, "block length \(value) is implausible") }
        return Int(value)
    }
}
