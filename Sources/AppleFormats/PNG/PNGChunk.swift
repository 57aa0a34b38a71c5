import CZlib

/// One PNG chunk with its CRC verified.
struct PNGChunk: Sendable {
    var type: String
    var data: [UInt8]

    // Icons are tiny; this bounds the chunk count of hostile files.
    static let maxChunks = 10_000

    static func parseAll(_ bytes: [UInt8]) throws(PNGError) -> [PNGChunk] {
        guard bytes.starts(with: PNGImage.signature) else { throw PNGError.notPNG }
        var chunks: [PNGChunk] = []
        var failure: PNGError?
        bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw, offset: 8)
            do {
                while !r.isAtEnd {
                    guard chunks.count < maxChunks else { failure = .corrupt("it has more than \(maxChunks) chunks"); return }
                    let start = r.offset
                    let length = Int(try r.u32be())
                    let typeAndData = try r.bytes(4 + length)
                    let stored = try r.u32be()
                    let computed = UInt32(crc32(0, typeAndData.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(typeAndData.count)))
                    let type = String(decoding: typeAndData.prefix(4), as: UTF8.self)
                    guard stored == computed else {
                        failure = .corrupt("the \(type) chunk at byte \(start) fails its CRC check")
                        return
                    }
                    chunks.append(PNGChunk(type: type, data: Array(typeAndData.dropFirst(4))))
                    if type == "IEND" { return }
                }
                failure = .corrupt("it ends without an IEND chunk")
            } catch {
                failure = .corrupt("it is truncated (\(error))")
            }
        }
        if let failure { throw failure }
        return chunks
    }

    /// Serializes a chunk with its length and CRC.
    static func encode(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        var out = withUnsafeBytes(of: UInt32(data.count).bigEndian, Array.init)
        let body = typeBytes + data
        out += body
        let crc = body.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        out += withUnsafeBytes(of: crc.bigEndian, Array.init)
        return out
    }
}
