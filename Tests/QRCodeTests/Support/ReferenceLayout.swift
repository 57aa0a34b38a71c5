@testable import QRCode

/// What ISO/IEC 18004 says about a symbol's layout, written down in the test independently of the
/// encoder: alignment positions from the standard's Annex E table (the encoder computes them), the
/// function-module map built from the pattern descriptions, and the format and version information
/// read back from a finished symbol.
enum ReferenceLayout {
    /// Annex E: row/column coordinates of alignment pattern centres for versions 2–40.
    static let alignmentCenters: [Int: [Int]] = [
        2: [6, 18], 3: [6, 22], 4: [6, 26], 5: [6, 30], 6: [6, 34],
        7: [6, 22, 38], 8: [6, 24, 42], 9: [6, 26, 46], 10: [6, 28, 50], 11: [6, 30, 54], 12: [6, 32, 58], 13: [6, 34, 62],
        14: [6, 26, 46, 66], 15: [6, 26, 48, 70], 16: [6, 26, 50, 74], 17: [6, 30, 54, 78], 18: [6, 30, 56, 82],
        19: [6, 30, 58, 86], 20: [6, 34, 62, 90],
        21: [6, 28, 50, 72, 94], 22: [6, 26, 50, 74, 98], 23: [6, 30, 54, 78, 102], 24: [6, 28, 54, 80, 106],
        25: [6, 32, 58, 84, 110], 26: [6, 30, 58, 86, 114], 27: [6, 34, 62, 90, 118],
        28: [6, 26, 50, 74, 98, 122], 29: [6, 30, 54, 78, 102, 126], 30: [6, 26, 52, 78, 104, 130],
        31: [6, 30, 56, 82, 108, 134], 32: [6, 34, 60, 86, 112, 138], 33: [6, 30, 58, 86, 114, 142],
        34: [6, 34, 62, 90, 118, 146],
        35: [6, 30, 54, 78, 102, 126, 150], 36: [6, 24, 50, 76, 102, 128, 154], 37: [6, 28, 54, 80, 106, 132, 158],
        38: [6, 32, 58, 84, 110, 136, 162], 39: [6, 26, 54, 82, 110, 138, 166], 40: [6, 30, 58, 86, 114, 142, 170],
    ]

    static func size(version: Int) -> Int { 17 + 4 * version }

    /// Alignment pattern centres as (x, y), leaving out the three corners the finders occupy.
    static func alignmentPatterns(version: Int) -> [(x: Int, y: Int)] {
        let centers = alignmentCenters[version] ?? []
        var result: [(x: Int, y: Int)] = []
        for y in centers {
            for x in centers {
                let nearFinder = (x < 10 && y < 10) || (x < 10 && y > size(version: version) - 10) || (x > size(version: version) - 10 && y < 10)
                if !nearFinder { result.append((x, y)) }
            }
        }
        return result
    }

    /// true for every module that belongs to a function pattern or to the format/version areas.
    static func functionMap(version: Int) -> [[Bool]] {
        let size = size(version: version)
        var map = [[Bool]](repeating: [Bool](repeating: false, count: size), count: size)
        func mark(_ xs: ClosedRange<Int>, _ ys: ClosedRange<Int>) {
            for y in ys { for x in xs { map[y][x] = true } }
        }
        // Finders with separators (8x8 at three corners), with the format areas beside them.
        mark(0 ... 8, 0 ... 8)
        mark(size - 8 ... size - 1, 0 ... 8)
        mark(0 ... 8, size - 8 ... size - 1)
        // Timing patterns.
        mark(6 ... 6, 0 ... size - 1)
        mark(0 ... size - 1, 6 ... 6)
        for center in alignmentPatterns(version: version) {
            mark(center.x - 2 ... center.x + 2, center.y - 2 ... center.y + 2)
        }
        if version >= 7 {
            mark(size - 11 ... size - 9, 0 ... 5)
            mark(0 ... 5, size - 11 ... size - 9)
        }
        return map
    }

    /// Modules left for codewords and remainder bits, counted on the map.
    static func dataModuleCount(version: Int) -> Int {
        functionMap(version: version).reduce(0) { $0 + $1.filter { !$0 }.count }
    }

    /// GF(2) polynomial remainder, bit by bit from the top (the test's own long division).
    static func polynomialRemainder(_ value: Int, divisor: Int, valueBits: Int, divisorBits: Int) -> Int {
        var rest = value
        for bit in stride(from: valueBits - 1, through: divisorBits - 1, by: -1) where rest & (1 << bit) != 0 {
            rest ^= divisor << (bit - (divisorBits - 1))
        }
        return rest
    }

    /// The two 15-bit copies of the format information as placed in `code`, most significant bit first.
    static func formatCopies(_ code: QRCode) -> (first: Int, second: Int) {
        let size = code.size
        // Copy 1: row 8 from the left edge (skipping the timing column), then up column 8.
        var firstPositions: [(Int, Int)] = [(0, 8), (1, 8), (2, 8), (3, 8), (4, 8), (5, 8), (7, 8), (8, 8)]
        firstPositions += [(8, 7), (8, 5), (8, 4), (8, 3), (8, 2), (8, 1), (8, 0)]
        // Copy 2: up column 8 from the bottom edge (bits 14…8), then row 8 towards the right edge (bits 7…0).
        var secondPositions: [(Int, Int)] = (0 ..< 7).map { (8, size - 1 - $0) }
        secondPositions += (0 ..< 8).map { (size - 8 + $0, 8) }
        func read(_ positions: [(Int, Int)]) -> Int {
            positions.reduce(0) { $0 << 1 | (code.isDark(x: $1.0, y: $1.1) ? 1 : 0) }
        }
        return (read(firstPositions), read(secondPositions))
    }

    /// The two 18-bit copies of the version information, most significant bit first (versions 7+).
    static func versionCopies(_ code: QRCode) -> (upperRight: Int, lowerLeft: Int) {
        let size = code.size
        var upperRight = 0, lowerLeft = 0
        // Bit 17 sits at the block's far corner; bits run down the 3-wide side, then across the 6-long side.
        for bit in stride(from: 17, through: 0, by: -1) {
            let along = bit / 3, across = size - 11 + bit % 3
            upperRight = upperRight << 1 | (code.isDark(x: across, y: along) ? 1 : 0)
            lowerLeft = lowerLeft << 1 | (code.isDark(x: along, y: across) ? 1 : 0)
        }
        return (upperRight, lowerLeft)
    }
}
