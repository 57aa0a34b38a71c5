/// Bits appended most significant first and packed into bytes, as QR code data streams are.
struct BitBuffer {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Appends the low `width` (at most 63) bits of `value`, highest first.
    mutating func append(_ value: Int, width: Int) {
        // A `while` loop and masking shifts: an unoptimised build (tests, `swift run`) runs `stride`
        // and the generic `>>` as unspecialised calls, several times slower.
        var shift = width &- 1
        while shift >= 0 {
            let bit = count & 7
            if bit == 0 { bytes.append(0) }
            if (value &>> shift) & 1 != 0 { bytes[bytes.count &- 1] |= 0x80 &>> UInt8(truncatingIfNeeded: bit) }
            count &+= 1
            shift &-= 1
        }
    }
}
