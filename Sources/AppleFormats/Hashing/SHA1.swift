/// SHA-1 (FIPS 180-4), incremental.
///
/// Only used for certificate fingerprints, which Apple's tools still show as
/// SHA-1; never for anything security relevant.
public struct SHA1: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0)
    private var blocks = MessageBlocks()

    /// Starts a new hash.
    public init() {}

    /// Hashes `bytes` in one call.
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> HashDigest {
        var hasher = SHA1()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Hashes a byte array in one call.
    public static func hash(_ bytes: [UInt8]) -> HashDigest {
        bytes.withUnsafeBytes { hash($0) }
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
        for word in [state.0, state.1, state.2, state.3, state.4] {
            for shift in [24, 16, 8, 0] as [UInt32] { out.append(UInt8(truncatingIfNeeded: word >> shift)) }
        }
        return HashDigest(bytes: out)
    }

    // Rotations are written out with masking shifts: an unoptimised build neither inlines a helper
    // nor specialises the generic `<<`/`>>` (see SHA256's compression function).

    /// Runs the compression function over `blocks` consecutive 64-byte blocks at `input`
    /// (in place, with one schedule buffer: this hashes every resource of a bundle being signed).
    static func compress(_ state: inout (UInt32, UInt32, UInt32, UInt32, UInt32), _ input: UnsafeRawPointer, blocks: Int) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            var (h0, h1, h2, h3, h4) = state
            for block in 0 ..< blocks {
                let p = input + block * 64
                for i in 0 ..< 16 { w[i] = UInt32(bigEndian: p.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)) }
                for i in 16 ..< 80 {
                    let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                    w[i] = (x &<< 1) | (x &>> 31)
                }
                var a = h0, b = h1, c = h2, d = h3, e = h4
                for i in 0 ..< 20 {
                    let t = ((a &<< 5) | (a &>> 27)) &+ ((b & c) | (~b & d)) &+ e &+ 0x5a82_7999 &+ w[i]
                    e = d; d = c; c = ((b &<< 30) | (b &>> 2)); b = a; a = t
                }
                for i in 20 ..< 40 {
                    let t = ((a &<< 5) | (a &>> 27)) &+ (b ^ c ^ d) &+ e &+ 0x6ed9_eba1 &+ w[i]
                    e = d; d = c; c = ((b &<< 30) | (b &>> 2)); b = a; a = t
                }
                for i in 40 ..< 60 {
                    let t = ((a &<< 5) | (a &>> 27)) &+ ((b & c) | (b & d) | (c & d)) &+ e &+ 0x8f1b_bcdc &+ w[i]
                    e = d; d = c; c = ((b &<< 30) | (b &>> 2)); b = a; a = t
                }
                for i in 60 ..< 80 {
                    let t = ((a &<< 5) | (a &>> 27)) &+ (b ^ c ^ d) &+ e &+ 0xca62_c1d6 &+ w[i]
                    e = d; d = c; c = ((b &<< 30) | (b &>> 2)); b = a; a = t
                }
                h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e
            }
            state = (h0, h1, h2, h3, h4)
        }
    }
}
