/// Builds little DWARF sections by hand, for forms and opcodes compilers rarely emit.
struct ByteBuilder {
    var bytes: [UInt8] = []
    var count: Int { bytes.count }

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
    mutating func u24(_ v: UInt32) { u8(UInt8(v & 0xff)); u8(UInt8(v >> 8 & 0xff)); u8(UInt8(v >> 16 & 0xff)) }
    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
    mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
    mutating func uleb(_ value: UInt64) {
        var v = value
        repeat {
            var byte = UInt8(v & 0x7f)
            v >>= 7
            if v != 0 { byte |= 0x80 }
            bytes.append(byte)
        } while v != 0
    }
    mutating func sleb(_ value: Int64) {
        var v = value
        while true {
            let byte = UInt8(v & 0x7f)
            v >>= 7
            if (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0) { bytes.append(byte); return }
            bytes.append(byte | 0x80)
        }
    }
    mutating func cString(_ s: String) { bytes += Array(s.utf8) + [0] }
    mutating func patch32(at offset: Int, _ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { for (i, b) in $0.enumerated() { bytes[offset + i] = b } } }
}
