/// SHA-256 (FIPS 180-4), incremental.
///
/// Written here because neither CryptoKit nor a C crypto library may be used on
/// Linux; it is on the ingest path (every blob of a 500 MB ipa is hashed), so the
/// compression loop works on raw pointers with the state in locals.
public struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
    private var pending: [UInt8] = []
    private var totalBytes: UInt64 = 0

    /// The digest size in bytes.
    public static let digestByteCount = 32

    /// Starts a new hash.
    public init() {
        pending.reserveCapacity(64)
    }

    /// Hashes `bytes` in one call.
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> HashDigest {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Hashes a byte array in one call.
    public static func hash(_ bytes: [UInt8]) -> HashDigest {
        bytes.withUnsafeBytes { hash($0) }
    }

    /// Feeds more input.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// Feeds more input.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress, bytes.count > 0 else { return }
        var count = bytes.count
        totalBytes &+= UInt64(count)
        if !pending.isEmpty {
            let take = min(64 - pending.count, count)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
            base += take
            count -= take
            if pending.count == 64 {
                pending.withUnsafeBytes { block in
                    if let address = block.baseAddress { Self.compress(&state, address, blocks: 1) }
                }
                pending.removeAll(keepingCapacity: true)
            }
        }
        let blocks = count / 64
        if blocks > 0 {
            Self.compress(&state, base, blocks: blocks)
            base += blocks * 64
            count -= blocks * 64
        }
        if count > 0 {
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: count))
        }
    }

    /// Pads, finishes and returns the digest.
    public consuming func finalize() -> HashDigest {
        let bitLength = totalBytes &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        tail.withUnsafeBytes { block in
            if let address = block.baseAddress { Self.compress(&state, address, blocks: tail.count / 64) }
        }
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for word in [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7] {
            out.append(UInt8(truncatingIfNeeded: word >> 24))
            out.append(UInt8(truncatingIfNeeded: word >> 16))
            out.append(UInt8(truncatingIfNeeded: word >> 8))
            out.append(UInt8(truncatingIfNeeded: word))
        }
        return HashDigest(bytes: out)
    }
}
