extension SHA256 {
    static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    // The rotations are written out with masking shifts (`&>>`, `&<<`) rather than through a helper
    // and `>>`: an unoptimised build (tests, `swift run`) neither inlines a helper nor specialises the
    // generic smart shift, and hashed a 300 MB upload seven times slower that way.

    // One round; the caller rotates the roles of the eight working variables
    // instead of shuffling values, which keeps everything in registers.
    @inline(__always)
    private static func round(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
                              _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32) {
        let t1 = h &+ (((e &>> 6) | (e &<< 26)) ^ ((e &>> 11) | (e &<< 21)) ^ ((e &>> 25) | (e &<< 7))) &+ (g ^ (e & (f ^ g))) &+ kw
        let t2 = (((a &>> 2) | (a &<< 30)) ^ ((a &>> 13) | (a &<< 19)) ^ ((a &>> 22) | (a &<< 10))) &+ ((a & b) | (c & (a | b)))
        d = d &+ t1
        h = t1 &+ t2
    }

    /// Runs the compression function over `blocks` consecutive 64-byte blocks at `input`.
    static func compress(_ state: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32),
                         _ input: UnsafeRawPointer, blocks: Int) {
        roundConstants.withUnsafeBufferPointer { kBuffer in
            guard let k = kBuffer.baseAddress else { return }
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { scheduleBuffer in
                guard let w = scheduleBuffer.baseAddress else { return }
                var (h0, h1, h2, h3, h4, h5, h6, h7) = state
                var block = input
                for _ in 0 ..< blocks {
                    for i in 0 ..< 16 {
                        w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
                    }
                    for i in 16 ..< 64 {
                        let x = w[i &- 15], y = w[i &- 2]
                        let s0 = ((x &>> 7) | (x &<< 25)) ^ ((x &>> 18) | (x &<< 14)) ^ (x &>> 3)
                        let s1 = ((y &>> 17) | (y &<< 15)) ^ ((y &>> 19) | (y &<< 13)) ^ (y &>> 10)
                        w[i] = w[i &- 16] &+ s0 &+ w[i &- 7] &+ s1
                    }
                    var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
                    var i = 0
                    while i < 64 {
                        round(a, b, c, &d, e, f, g, &h, k[i] &+ w[i])
                        round(h, a, b, &c, d, e, f, &g, k[i &+ 1] &+ w[i &+ 1])
                        round(g, h, a, &b, c, d, e, &f, k[i &+ 2] &+ w[i &+ 2])
                        round(f, g, h, &a, b, c, d, &e, k[i &+ 3] &+ w[i &+ 3])
                        round(e, f, g, &h, a, b, c, &d, k[i &+ 4] &+ w[i &+ 4])
                        round(d, e, f, &g, h, a, b, &c, k[i &+ 5] &+ w[i &+ 5])
                        round(c, d, e, &f, g, h, a, &b, k[i &+ 6] &+ w[i &+ 6])
                        round(b, c, d, &e, f, g, h, &a, k[i &+ 7] &+ w[i &+ 7])
                        i &+= 8
                    }
                    h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                    block += 64
                }
                state = (h0, h1, h2, h3, h4, h5, h6, h7)
            }
        }
    }
}
