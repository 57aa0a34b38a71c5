import CZlib

/// The few PNG chunks a grayscale image needs (IHDR, IDAT, IEND), with zlib's deflate and CRC-32.
/// Kept here rather than shared so the QR code module depends on nothing but the OS zlib.
enum PNGWriter {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Scanline filter types (each scanline starts with one).
    enum Filter {
        static let none: UInt8 = 0
        static let up: UInt8 = 2
    }

    /// A complete grayscale PNG from already filtered scanlines.
    static func grayscale(width: Int, height: Int, bitDepth: UInt8, scanlines: [UInt8]) throws(QRCodeError) -> [UInt8] {
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [bitDepth, 0, 0, 0, 0]  // colour type 0 (grayscale), deflate, adaptive filtering, no interlace
        var out = signature
        appendChunk("IHDR", header, to: &out)
        appendChunk("IDAT", try deflate(scanlines), to: &out)
        appendChunk("IEND", [], to: &out)
        return out
    }

    /// Appends length, type, data and the CRC-32 of type and data.
    static func appendChunk(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        let body = Array(type.utf8) + data
        out += bigEndian(UInt32(data.count))
        out += body
        let crc = body.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        out += bigEndian(crc)
    }

    /// A zlib stream of `bytes` at the default level, which is near the best on these images at a fraction of level 9's time.
    static func deflate(_ bytes: [UInt8]) throws(QRCodeError) -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = out.withUnsafeMutableBufferPointer { output in
            bytes.withUnsafeBufferPointer { input in
                compress2(output.baseAddress, &length, input.baseAddress, uLong(input.count), Z_DEFAULT_COMPRESSION)
            }
        }
        guard status == Z_OK else { throw .compressionFailed(status: status) }
        out.removeLast(out.count - Int(length))
        return out
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}
