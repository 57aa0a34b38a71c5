import Foundation
import TestSupport

/// zbarimg (Debian zbar-tools), a real QR code reader, run over many image files at once.
enum Zbar {
    /// Only the QR code reader: with every symbology on, zbar now and then also reads a stretch of
    /// modules as a linear barcode (an Interleaved 2 of 5 "272066" inside one version-13 symbol).
    static let qrOnly = ["-Sdisable", "-Sqrcode.enable"]

    /// The decoded text of each file, by path, from one `zbarimg --xml` run; files with no symbol are
    /// missing, and a file with several symbols gets them all.
    static func decodeText(_ paths: [String]) async throws -> [String: [String]] {
        let result = try await runTool("zbarimg", ["--nodbus", "--xml", "-q"] + qrOnly + paths, timeout: 600)
        // Status 4 means some file had no symbol; the comparison with the expected texts reports which.
        guard result.status == 0 || result.status == 4 else {
            throw ReferenceDecoder.Failure("zbarimg exited \(result.status): \(result.error)")
        }
        var decoded: [String: [String]] = [:]
        let source = #/<source href='([^']*)'>(.*?)</source>/#.dotMatchesNewlines()
        let data = #/<data><!\[CDATA\[(.*?)\]\]></data>/#.dotMatchesNewlines()
        for match in result.text.matches(of: source) {
            decoded[String(match.1)] = match.2.matches(of: data).map { String($0.1) }
        }
        return decoded
    }

    /// The exact bytes of the one symbol in `path`, read in binary mode (no character set guessing).
    static func decodeBinary(_ path: String) async throws -> [UInt8] {
        let result = try await runTool("zbarimg", ["--nodbus", "--raw", "-q", "-Sbinary"] + qrOnly + [path])
        guard result.status == 0 else { throw ReferenceDecoder.Failure("zbarimg found no symbol in \(path): \(result.error)") }
        var bytes = [UInt8](result.output)
        if bytes.last == 0x0A { bytes.removeLast() }  // zbarimg ends each symbol with a newline
        return bytes
    }
}

/// Decodes PNG files with Python's zlib and struct, independently of the writer: chunk CRCs, the
/// header fields and the pixels, unfiltered for any filter type.
enum PythonPNG {
    struct Image: Decodable {
        var chunks: [String]
        var crcsValid: Bool
        var width: Int
        var height: Int
        var bitDepth: Int
        var colourType: Int
        var interlace: Int
        var trailingBytes: Int
        /// One string per pixel row: "1" for a black pixel (value 0), "0" for white.
        var dark: [String]
        var otherValues: Int
    }

    static let script = """
        import json, struct, sys, zlib
        out = []
        for path in sys.argv[1:]:
            data = open(path, "rb").read()
            assert data[:8] == b"\\x89PNG\\r\\n\\x1a\\n", "signature"
            pos, chunks, crcs, idat, header = 8, [], True, b"", None
            while pos < len(data):
                length, kind = struct.unpack(">I4s", data[pos:pos + 8])
                body = data[pos + 8:pos + 8 + length]
                crc, = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
                crcs = crcs and zlib.crc32(kind + body) == crc
                chunks.append(kind.decode())
                pos += 12 + length
                if kind == b"IHDR": header = struct.unpack(">IIBBBBB", body)
                if kind == b"IDAT": idat += body
                if kind == b"IEND": break
            width, height, depth, colour, _, _, interlace = header
            raw = zlib.decompress(idat)
            stride = (width * depth + 7) // 8
            bpp = max(1, depth // 8)
            rows, previous, index = [], bytearray(stride), 0
            for _ in range(height):
                kind, line = raw[index], bytearray(raw[index + 1:index + 1 + stride])
                index += 1 + stride
                for i in range(stride):
                    left = line[i - bpp] if i >= bpp else 0
                    up, corner = previous[i], (previous[i - bpp] if i >= bpp else 0)
                    if kind == 1: line[i] = (line[i] + left) & 255
                    elif kind == 2: line[i] = (line[i] + up) & 255
                    elif kind == 3: line[i] = (line[i] + (left + up) // 2) & 255
                    elif kind == 4:
                        p = left + up - corner
                        pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                        line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
                    else: assert kind == 0, "filter type"
                rows.append(line)
                previous = line
            assert index == len(raw), "extra image data"
            dark, other, top = [], 0, (1 << depth) - 1
            for line in rows:
                values = [(line[(x * depth) // 8] >> (8 - depth - (x * depth) % 8)) & top for x in range(width)]
                other += sum(1 for v in values if v not in (0, top))
                dark.append("".join("1" if v == 0 else "0" for v in values))
            out.append({"chunks": chunks, "crcsValid": crcs, "width": width, "height": height, "bitDepth": depth,
                        "colourType": colour, "interlace": interlace, "trailingBytes": len(data) - pos,
                        "dark": dark, "otherValues": other})
        json.dump(out, sys.stdout)
        """

    static func decode(_ paths: [String]) async throws -> [Image] {
        let result = try await runTool("python3", ["-c", script] + paths)
        guard result.status == 0 else { throw ReferenceDecoder.Failure("Python could not read the PNG: \(result.error)") }
        return try JSONDecoder().decode([Image].self, from: result.output)
    }
}
