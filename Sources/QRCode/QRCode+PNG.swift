extension QRCode {
    /// The symbol as a 1-bit grayscale PNG, `scale` pixels per module, with the quiet zone: black
    /// modules on white, (size + 8) × scale pixels a side. Throws `QRCodeError.invalidScale` when
    /// `scale` is outside `QRCode.scales`.
    public func png(scale: Int = 8) throws(QRCodeError) -> [UInt8] {
        guard Self.scales.contains(scale) else { throw .invalidScale(scale, allowed: Self.scales) }
        let pixels = (size + 2 * Self.quietZone) * scale
        let rowBytes = (pixels + 7) / 8
        // Each module row becomes `scale` identical pixel rows: the first unfiltered, the others with
        // the Up filter, whose bytes are then all zero and deflate to almost nothing.
        var scanlines: [UInt8] = []
        scanlines.reserveCapacity(pixels * (rowBytes + 1))
        var row = [UInt8](repeating: 0, count: rowBytes)
        for moduleY in -Self.quietZone ..< size + Self.quietZone {
            for index in row.indices { row[index] = 0xFF }  // light is 1 in 1-bit grayscale
            if moduleY >= 0 && moduleY < size {
                for moduleX in 0 ..< size where modules[moduleY * size + moduleX] != 0 {
                    let first = (moduleX + Self.quietZone) * scale
                    for pixel in first ..< first + scale { row[pixel >> 3] &= ~(0x80 >> UInt8(pixel & 7)) }
                }
            }
            scanlines.append(PNGWriter.Filter.none)
            scanlines += row
            for _ in 1 ..< scale {
                scanlines.append(PNGWriter.Filter.up)
                scanlines += repeatElement(0, count: rowBytes)
            }
        }
        return try PNGWriter.grayscale(width: pixels, height: pixels, bitDepth: 1, scanlines: scanlines)
    }
}
