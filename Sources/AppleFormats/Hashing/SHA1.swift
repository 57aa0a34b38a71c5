/// SHA-1 (FIPS 180-4), incremental.
///
/// Only used for certificate fingerprints, which Apple's tools still show as
/// SHA-1; never for anything security relevant.
public struct SHA1: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0)
    private var pending: [UInt8] = []
    private var totalBytes: UInt64 = 0

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
        totalBytes &+= UInt64(bytes.count)
        for byte in bytes {
            pending.append(byte)
            if pending.count == 64 {
                compressPending()
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Pads, finishes and returns the digest.
    public consuming func finalize() -> HashDigest {
        let bitLength = totalBytes &* 8
        pending.append(0x80)
        if pending.count > 56 {
            while pending.count < 64 { pending.append(0) }
            compressPending()
            pending.removeAll(keepingCapacity: true)
        }
        while pending.count < 56 { pending.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { pending.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        compressPending()
        var out: [UInt8] = []
        for word in [state.0, state.1, state.2, state.3, state.4] {
            for shift in [24, 16, 8, 0] as [UInt32] { out.append(UInt8(truncatingIfNeeded: word >> shift)) }
        }
        return HashDigest(bytes: out)
    }

    private mutating func compressPending() {
        var w = [UInt32](repeating: 0, count: 80)
        for i in 0 ..< 16 {
            w[i] = UInt32(pending[i * 4]) << 24 | UInt32(pending[i * 4 + 1]) << 16 | UInt32(pending[i * 4 + 2]) << 8 | UInt32(pending[i * 4 + 3])
        }
        for i in 16 ..< 80 {
            let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
            w[i] = (x << 1) | (x >> 31)
        }
        var (a, b, c, d, e) = state
        for i in 0 ..< 80 {
            let f: UInt32, k: UInt32
            switch i {
            case 0 ..< 20: f = (b & c) | (~b & d); k = 0x5a82_7999
            case 20 ..< 40: f = b ^ c ^ d; k = 0x6ed9_eba1
            case 40 ..< 60: f = (b & c) | (b & d) | (c & d); k = 0x8f1b_bcdc
            default: f = b ^ c ^ d; k = 0xca62_c1d6
            }
            let temp = ((a << 5) | (a >> 27)) &+ f &+ e &+ k &+ w[i]
            e = d; d = c; c = (b << 30) | (b >> 2); b = a; a = temp
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
    }
}
