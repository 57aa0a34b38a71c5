import CZlib

/// An 8-bit RGBA image decoded from a standard PNG or from Apple's CgBI variant.
///
/// Xcode "crushes" app icons into CgBI PNGs that browsers cannot show: an extra
/// CgBI chunk, a raw deflate stream without zlib header, BGRA channel order and
/// premultiplied alpha. Decoding undoes all of that; `encoded()` writes a plain PNG.
public struct PNGImage: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Straight (not premultiplied) RGBA, row by row.
    public var rgba: [UInt8]
    /// Whether the source was an Apple CgBI PNG.
    public var wasCgBI: Bool

    static let signature: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
    static let maxDimension: UInt32 = 4096

    /// Creates an image from straight RGBA pixels.
    public init(width: Int, height: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.rgba = rgba
        self.wasCgBI = false
    }

    /// Whether `bytes` is an Apple CgBI PNG (a CgBI chunk before IHDR).
    public static func isCgBI(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 16 && bytes.starts(with: signature) && bytes[12 ..< 16].elementsEqual(Array("CgBI".utf8))
    }

    /// Converts an icon for browsers: CgBI files are decoded and re-encoded, standard PNGs are returned unchanged.
    public static func browserCompatiblePNG(_ bytes: [UInt8]) throws(PNGError) -> [UInt8] {
        guard bytes.starts(with: signature) else { throw PNGError.notPNG }
        guard isCgBI(bytes) else { return bytes }
        return try PNGImage(bytes: bytes).encoded()
    }

    /// Decodes an 8-bit, non-interlaced RGB or RGBA PNG, standard or CgBI.
    public init(bytes: [UInt8]) throws(PNGError) {
        let chunks = try PNGChunk.parseAll(bytes)
        let isCgBI = chunks.first?.type == "CgBI"
        guard let header = chunks.first(where: { $0.type == "IHDR" }), header.data.count == 13 else {
            throw PNGError.corrupt("it has no valid IHDR chunk")
        }
        let h = header.data
        let width = UInt32(h[0]) << 24 | UInt32(h[1]) << 16 | UInt32(h[2]) << 8 | UInt32(h[3])
        let height = UInt32(h[4]) << 24 | UInt32(h[5]) << 16 | UInt32(h[6]) << 8 | UInt32(h[7])
        let depth = h[8], colorType = h[9], interlace = h[12]
        guard width > 0, height > 0 else { throw PNGError.corrupt("its size is \(width)x\(height)") }
        guard width <= Self.maxDimension, height <= Self.maxDimension else { throw PNGError.tooLarge(width: width, height: height) }
        guard depth == 8 else { throw PNGError.unsupported("a bit depth of \(depth)") }
        guard colorType == 6 || colorType == 2 else { throw PNGError.unsupported("color type \(colorType) (only RGB and RGBA are converted)") }
        guard interlace == 0 else { throw PNGError.unsupported("Adam7 interlacing") }
        let channels = colorType == 6 ? 4 : 3
        let rowBytes = Int(width) * channels
        let expected = Int(height) * (rowBytes + 1)
        var compressed: [UInt8] = []
        for chunk in chunks where chunk.type == "IDAT" { compressed += chunk.data }
        guard !compressed.isEmpty else { throw PNGError.corrupt("it has no IDAT chunk") }
        let filtered = try Self.inflate(compressed, raw: isCgBI, expected: expected)
        let pixels = try PNGFilter.unfilter(filtered, rowBytes: rowBytes, height: Int(height), bytesPerPixel: channels)
        var rgba = [UInt8](repeating: 255, count: Int(width) * Int(height) * 4)
        var source = 0, target = 0
        while source < pixels.count {
            var r = pixels[source], g = pixels[source + 1], b = pixels[source + 2]
            let a: UInt8 = channels == 4 ? pixels[source + 3] : 255
            if isCgBI {
                swap(&r, &b)
                if a != 255 {
                    r = Self.unpremultiply(r, a); g = Self.unpremultiply(g, a); b = Self.unpremultiply(b, a)
                }
            }
            rgba[target] = r; rgba[target + 1] = g; rgba[target + 2] = b; rgba[target + 3] = a
            source += channels
            target += 4
        }
        self.width = Int(width)
        self.height = Int(height)
        self.rgba = rgba
        self.wasCgBI = isCgBI
    }

    @inline(__always)
    static func unpremultiply(_ value: UInt8, _ alpha: UInt8) -> UInt8 {
        guard alpha != 0 else { return 0 }
        return UInt8(min(255, (Int(value) * 255 + Int(alpha) / 2) / Int(alpha)))
    }

    /// Inflates a zlib (standard) or raw deflate (CgBI) stream, refusing output beyond `expected` bytes.
    static func inflate(_ input: [UInt8], raw: Bool, expected: Int) throws(PNGError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, raw ? -MAX_WBITS : MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw PNGError.corrupt("zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: expected + 1)
        var input = input
        let status: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        let produced = Int(stream.total_out)
        guard status == Z_STREAM_END else {
            if produced > expected { throw PNGError.corrupt("its image data is larger than \(expected) bytes") }
            let reason = status == Z_BUF_ERROR ? "its image data ends early" : "its image data cannot be inflated (zlib \(status))"
            throw PNGError.corrupt(raw ? reason + " (CgBI raw deflate)" : reason)
        }
        guard produced == expected else {
            throw PNGError.corrupt("its image data holds \(produced) bytes, expected \(expected)")
        }
        output.removeLast(output.count - produced)
        return output
    }
}
