// QRCode: a generic QR code encoder (byte mode, level M) drawing SVG and PNG. It may import CZlib
// (PNG's deflate) only.

/// A QR code symbol (ISO/IEC 18004, Model 2) holding bytes in 8-bit byte mode at error correction
/// level M, which recovers roughly 15% of damaged codewords: enough for a code on a screen, while
/// keeping a URL's symbol small.
///
/// `encode` picks the smallest of the forty versions that holds the data and the data mask with
/// the lowest penalty, then `svg(moduleSize:)` and `png(scale:)` draw it with the 4-module quiet
/// zone the standard requires. Values are immutable and `Sendable`, so one encoded code can be
/// rendered from any task.
public struct QRCode: Sendable, Equatable {
    /// The version, 1...40: version v has 17 + 4v modules a side.
    public let version: Int
    /// Modules a side, quiet zone excluded.
    public let size: Int
    /// The data mask (0...7) that scored the lowest penalty; the format information records it.
    public let mask: Int
    /// Row-major, one byte a module, 1 for dark.
    let modules: [UInt8]

    /// The most bytes any QR code holds at level M (version 40).
    public static let maximumByteCount: Int = QRVersion.number(40).byteCapacity

    /// The width of the light border every renderer draws around the symbol, in modules.
    public static let quietZone = 4

    /// The module sizes, in pixels (PNG) or user units (SVG), that the renderers accept.
    public static let scales: ClosedRange<Int> = 1 ... 32

    /// The most bytes a symbol of `version` (1...40) holds at level M, or nil for another number.
    public static func byteCapacity(version: Int) -> Int? {
        QRVersion.numbers.contains(version) ? QRVersion.number(version).byteCapacity : nil
    }

    /// Encodes `bytes` in byte mode at level M in the smallest version that holds them.
    /// Throws `QRCodeError.tooLong` when they exceed `maximumByteCount`.
    public static func encode(_ bytes: some Collection<UInt8>) throws(QRCodeError) -> QRCode {
        // Refused before copying, so an oversized input costs nothing.
        guard bytes.count <= maximumByteCount else { throw .tooLong(byteCount: bytes.count, maximum: maximumByteCount) }
        return try encode(Array(bytes), version: nil, mask: nil)
    }

    /// Encodes the UTF-8 bytes of `text`, such as a URL; readers show byte-mode UTF-8 as text.
    public static func encode(_ text: String) throws(QRCodeError) -> QRCode {
        try encode(text.utf8)
    }

    /// Whether the module in column `x`, row `y` (both from 0 at the top left) is dark. Coordinates
    /// outside the symbol are in the quiet zone and light.
    public func isDark(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x] != 0
    }

    /// The encoder, with the version (at least the smallest that fits) and the mask optionally
    /// forced; tests use it to compare every version and mask with an independent encoder.
    static func encode(_ bytes: [UInt8], version forcedVersion: Int?, mask forcedMask: Int?) throws(QRCodeError) -> QRCode {
        guard let smallest = QRVersion.smallest(holding: bytes.count) else {
            throw .tooLong(byteCount: bytes.count, maximum: maximumByteCount)
        }
        let version = forcedVersion.map { QRVersion.number(min(max($0, smallest.number), 40)) } ?? smallest
        let codewords = interleavedCodewords(dataCodewords(bytes, version: version), version: version)
        var grid = ModuleGrid(version: version)
        grid.placeCodewords(codewords)

        var best = (mask: 0, grid: grid, penalty: Int.max)
        for mask in forcedMask.map({ [$0] }) ?? Array(MaskPattern.all) {
            let candidate = grid.masked(mask)
            let penalty = forcedMask == nil ? MaskPenalty(modules: candidate.modules, size: candidate.size).total : 0
            if penalty < best.penalty { best = (mask, candidate, penalty) }
        }
        return QRCode(version: version.number, size: version.size, mask: best.mask, modules: best.grid.modules)
    }
}
