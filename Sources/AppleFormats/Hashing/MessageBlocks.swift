/// The input side shared by the 64-byte-block hashes (SHA-1, SHA-256): whole blocks go straight to
/// the compression function from the caller's memory, a partial block waits in `pending`, and the
/// end is padded as both pad it (0x80, zeros, the length in bits as a 64-bit big-endian number).
struct MessageBlocks: Sendable {
    private var pending: [UInt8] = []
    private var totalBytes: UInt64 = 0

    init() { pending.reserveCapacity(64) }

    /// Feeds `bytes`, handing every complete 64-byte block to `compress` (a pointer and a count of blocks).
    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ compress: (UnsafeRawPointer, Int) -> Void) {
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
                    if let address = block.baseAddress { compress(address, 1) }
                }
                pending.removeAll(keepingCapacity: true)
            }
        }
        let blocks = count / 64
        if blocks > 0 {
            compress(base, blocks)
            base += blocks * 64
            count -= blocks * 64
        }
        if count > 0 { pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: count)) }
    }

    /// Pads what is pending and hands the last one or two blocks to `compress`.
    consuming func finish(_ compress: (UnsafeRawPointer, Int) -> Void) {
        let bitLength = totalBytes &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        tail.withUnsafeBytes { block in
            if let address = block.baseAddress { compress(address, tail.count / 64) }
        }
    }
}
