/// Why a run of bytes does not spell a `UInt64`.
enum DigitsProblem: Error, Sendable {
    /// A byte is not a digit of the radix.
    case notADigit
    /// The number needs more than 64 bits.
    case overflow
}

extension UInt64 {
    /// The number `digits` spell in `radix` (10, or up to 16 with hex digits in either case),
    /// checked for overflow. No sign or prefix is read, and no digits are zero: callers that need
    /// at least one check first. Inlined, so text parsers on hot paths (crash reports) pay for no
    /// generic dispatch and no copy of the bytes.
    @inline(__always)
    init(digits: some Sequence<UInt8>, radix: UInt64) throws(DigitsProblem) {
        var value: UInt64 = 0
        for byte in digits {
            let digit: UInt64
            if radix == 10 {
                let decimal = byte &- 0x30
                guard decimal <= 9 else { throw .notADigit }
                digit = UInt64(decimal)
            } else {
                guard let hex = byte.hexDigitValue, UInt64(hex) < radix else { throw .notADigit }
                digit = UInt64(hex)
            }
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: radix)
            let (sum, overflow2) = shifted.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { throw .overflow }
            value = sum
        }
        self = value
    }
}
