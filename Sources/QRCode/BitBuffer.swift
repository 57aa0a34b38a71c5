/// Bits appended most significant first and packed into bytes, as QR code data streams are.
struct BitBuffer {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Appends the low `width` bits of `value`, highest first.
    mutating func append(_ value: Int, width: Int) {
        for shift in stride(from: width - 1, through: 0, by: -1) {
            if count % 8 == 0 { bytes.append(0) }
            if (value >> shift) & 1 != 0 { bytes[bytes.count - 1] |= 0x80 >> UInt8(count % 8) }
            count += 1
        }
    }
}
