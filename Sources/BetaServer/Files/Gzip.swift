import CZlib

/// gzip compression with zlib, for response bodies.
public enum Gzip {
    /// Compresses `input` into a gzip member; nil if zlib fails (callers then send identity).
    public static func compress(_ input: UnsafeRawBufferPointer, level: Int32 = 6) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16 selects the gzip wrapper.
        guard deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(input.count)))
        var output = [UInt8](repeating: 0, count: bound + 32)
        let status: Int32 = output.withUnsafeMutableBytes { out in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(input.count)
            stream.next_out = out.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(out.count)
            return deflate(&stream, Z_FINISH)
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// Whether `Accept-Encoding` allows gzip (present with a non-zero q-value).
    public static func isAccepted(by headers: HTTPHeaders) -> Bool {
        for element in headers.listElements("Accept-Encoding") {
            let parts = element.split(separator: ";")
            guard let coding = parts.first?.trimmingOWS(), HTTPHeaders.namesEqual(String(coding), "gzip") else {
                continue
            }
            for parameter in parts.dropFirst() {
                let trimmed = parameter.trimmingOWS()
                if trimmed.lowercased().hasPrefix("q="), let q = Double(trimmed.dropFirst(2)), q == 0 { return false }
            }
            return true
        }
        return false
    }
}
