/// SHA-256 (FIPS 180-4), incremental.
///
/// Written here because neither CryptoKit nor a C crypto library may be used on
/// Linux; it is on the ingest path (every blob of a 500 MB ipa is hashed), so the
/// compression loop works on raw pointers with the state in locals.
public struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
    private var blocks = MessageBlocks()

    /// The digest size in bytes.
    public static let digestByteCount = 32

    /// Starts a new hash.
    public init() {}

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
        var state = self.state
        blocks.feed(bytes) { address, count in Self.compress(&state, address, blocks: count) }
        self.state = state
    }

    /// Pads, finishes and returns the digest.
    public consuming func finalize() -> HashDigest {
        var state = self.state
        blocks.finish { address, count in Self.compress(&state, address, blocks: count) }
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
