/// The length that opens a DWARF unit or table: 32 bits, or `0xffffffff` followed by 64 bits for
/// 64-bit DWARF (which also makes section offsets inside it 8 bytes long).
struct DWARFInitialLength {
    /// The bytes that follow the length field.
    var length: Int
    /// The size of section offsets within: 4, or 8 in 64-bit DWARF.
    var offsetSize: Int

    /// Reads the length at the reader's position and checks that the data holds that many more
    /// bytes; `what` ("unit", "table") names the thing in errors.
    static func read(_ r: inout ByteReader, section: String, offset: Int, what: String) throws -> DWARFInitialLength {
        var length = UInt64(try r.u32le())
        var offsetSize = 4
        if length == 0xffff_ffff {
            length = try r.u64le()
            offsetSize = 8
        } else if length >= 0xffff_fff0 {
            throw DWARFError.malformed(section: section, offset: offset, reason: "reserved \(what) length 0x\(String(length, radix: 16))")
        }
        guard length <= UInt64(r.remaining) else {
            throw DWARFError.malformed(section: section, offset: offset,
                                       reason: "\(what) of \(length) bytes runs past the end of the \(r.bytes.count)-byte section")
        }
        return DWARFInitialLength(length: Int(length), offsetSize: offsetSize)
    }
}
