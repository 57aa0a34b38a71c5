extension QRCode {
    /// The symbol as a 1-bit grayscale PNG, `scale` pixels per module, with the quiet zone: black
    /// modules on white, (size + 8) × scale pixels a side. Throws `QRCodeError.invalidScale` when
    /// `scale` is outside `QRCode.scales`.
    public func png(scale: Int = 8) throws(QRCodeError) -> [UInt8] {
        guard Self.scales.contains(scale) else { throw .invalidScale(scale, allowed: Self.scales) }
        let size = self.size, quietZone = Self.quietZone
        let pixels = (size + 2 * quietZone) * scale
        let rowBytes = (pixels + 7) / 8
        let lineBytes = 1 + rowBytes  // the filter type, then the pixels
        let none = PNGWriter.Filter.none, up = PNGWriter.Filter.up
        // Each module row becomes `scale` identical pixel rows: the first unfiltered, the others with
        // the Up filter, whose bytes are then all zero and deflate to almost nothing. The loops are
        // `while` loops on raw pointers with masking shifts: an unoptimised build (tests,
        // `swift run`) runs range loops, array subscripts and the generic `>>` as calls, and drew
        // a symbol fifteen times slower.
        var scanlines = [UInt8](repeating: 0, count: pixels * lineBytes)
        scanlines.withUnsafeMutableBufferPointer { scanlinesBuffer in
            modules.withUnsafeBufferPointer { modulesBuffer in
                guard let first = scanlinesBuffer.baseAddress, let modules = modulesBuffer.baseAddress else { return }
                var line = first
                var moduleY = -quietZone
                while moduleY < size + quietZone {
                    line[0] = none
                    let row = line + 1
                    row.update(repeating: 0xFF, count: rowBytes)  // light is 1 in 1-bit grayscale
                    if moduleY >= 0 && moduleY < size {
                        let moduleRow = modules + moduleY &* size
                        var moduleX = 0
                        while moduleX < size {
                            if moduleRow[moduleX] != 0 {
                                var pixel = (moduleX &+ quietZone) &* scale
                                let end = pixel &+ scale
                                while pixel < end {
                                    row[pixel &>> 3] &= ~(0x80 &>> UInt8(truncatingIfNeeded: pixel & 7))
                                    pixel &+= 1
                                }
                            }
                            moduleX &+= 1
                        }
                    }
                    var repeated = 1
                    while repeated < scale {
                        line[repeated &* lineBytes] = up
                        repeated &+= 1
                    }
                    line += scale &* lineBytes
                    moduleY &+= 1
                }
            }
        }
        return try PNGWriter.grayscale(width: pixels, height: pixels, bitDepth: 1, scanlines: scanlines)
    }
}
