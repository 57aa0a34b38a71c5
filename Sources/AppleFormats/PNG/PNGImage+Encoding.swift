import CZlib

extension PNGImage {
    /// Encodes as a standard 8-bit RGBA PNG (zlib stream, Sub filter on every row).
    public func encoded() throws(PNGError) -> [UInt8] {
        var filtered: [UInt8] = []
        let rowBytes = width * 4
        filtered.reserveCapacity(height * (rowBytes + 1))
        for y in 0 ..< height {
            filtered.append(1)  // Sub: cheap and effective on icon gradients
            let row = y * rowBytes
            for x in 0 ..< rowBytes {
                filtered.append(rgba[row + x] &- (x >= 4 ? rgba[row + x - 4] : 0))
            }
        }
        var bound = compressBound(uLong(filtered.count))
        var compressed = [UInt8](repeating: 0, count: Int(bound))
        let status = compressed.withUnsafeMutableBufferPointer { out in
            filtered.withUnsafeBufferPointer { input in
                compress2(out.baseAddress, &bound, input.baseAddress, uLong(input.count), 9)
            }
        }
        guard status == Z_OK else { throw PNGError.corrupt("zlib could not compress the converted image (status \(status))") }
        compressed.removeLast(compressed.count - Int(bound))
        func be32(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(value).bigEndian, Array.init) }
        var out = Self.signature
        out += PNGChunk.encode("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0])
        out += PNGChunk.encode("IDAT", compressed)
        out += PNGChunk.encode("IEND", [])
        return out
    }
}
