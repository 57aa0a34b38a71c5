/// PNG scanline filters (None, Sub, Up, Average, Paeth).
enum PNGFilter {
    static func unfilter(_ data: [UInt8], rowBytes: Int, height: Int, bytesPerPixel bpp: Int) throws(PNGError) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: rowBytes * height)
        var failure: PNGError?
        data.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                for y in 0 ..< height {
                    let filter = input[y * (rowBytes + 1)]
                    let src = y * (rowBytes + 1) + 1
                    let dst = y * rowBytes
                    let above = dst - rowBytes
                    for x in 0 ..< rowBytes {
                        let raw = input[src + x]
                        let a = x >= bpp ? output[dst + x - bpp] : 0
                        let b = y > 0 ? output[above + x] : 0
                        let c = (x >= bpp && y > 0) ? output[above + x - bpp] : 0
                        let predicted: UInt8
                        switch filter {
                        case 0: predicted = 0
                        case 1: predicted = a
                        case 2: predicted = b
                        case 3: predicted = UInt8((Int(a) + Int(b)) / 2)
                        case 4: predicted = paeth(a, b, c)
                        default:
                            failure = .corrupt("row \(y) uses unknown filter type \(filter)")
                            return
                        }
                        output[dst + x] = raw &+ predicted
                    }
                }
            }
        }
        if let failure { throw failure }
        return out
    }

    @inline(__always)
    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }
}
