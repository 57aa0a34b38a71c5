/// Rewrites a fat (universal) file around signed slices: slices that kept their size stay where
/// they were; otherwise every slice is laid out again at its architecture's alignment.
enum FatWriter {
    static func rewrite(_ file: [UInt8], slices: [MachOFile.Slice], signed: [[UInt8]]) -> [UInt8] {
        if zip(slices, signed).allSatisfy({ $0.size == $1.count }) {
            var out = file
            for (slice, bytes) in zip(slices, signed) { out.replaceSubrange(slice.offset ..< slice.offset + slice.size, with: bytes) }
            return out
        }
        // The fat header is big-endian: magic, count, then (cputype, subtype, offset, size, align) per slice.
        var out = Array(file[0 ..< 8])
        var offsets: [Int] = []
        var position = 8 + 20 * slices.count
        for index in slices.indices {
            let align = Int(min(be32(file, 8 + 20 * index + 16), 16))
            let alignment = 1 << align
            position = (position + alignment - 1) / alignment * alignment
            offsets.append(position)
            position += signed[index].count
        }
        for index in slices.indices {
            let entry = 8 + 20 * index
            out += file[entry ..< entry + 8]
            putBE32(&out, UInt32(offsets[index]))
            putBE32(&out, UInt32(signed[index].count))
            out += file[entry + 16 ..< entry + 20]
        }
        for index in slices.indices {
            out += [UInt8](repeating: 0, count: offsets[index] - out.count)
            out += signed[index]
        }
        return out
    }

    static func be32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    static func putBE32(_ out: inout [UInt8], _ value: UInt32) {
        out += [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
    }
}
