/// Why a QR code could not be made or rendered.
public enum QRCodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data needs more bytes than the largest symbol (version 40 at level M) holds.
    case tooLong(byteCount: Int, maximum: Int)
    /// A renderer was asked for a module size outside `QRCode.scales`.
    case invalidScale(Int, allowed: ClosedRange<Int>)
    /// The OS zlib refused to compress the PNG image data (a zlib status code, never expected).
    case compressionFailed(status: Int32)

    /// A sentence naming the value and the fix.
    public var description: String {
        switch self {
        case let .tooLong(byteCount, maximum):
            return "the text is \(Self.grouped(byteCount)) bytes; a QR code at error correction level M holds at most "
                + "\(Self.grouped(maximum)), so shorten it"
        case let .invalidScale(scale, allowed):
            return "a module size of \(scale) is not supported; choose \(allowed.lowerBound) to \(allowed.upperBound) pixels per module"
        case let .compressionFailed(status):
            return "zlib could not compress the QR code image (status \(status)); render it as SVG instead"
        }
    }

    /// `2400` as `2,400`, the way people read byte counts.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = value < 0 ? "-" : ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
