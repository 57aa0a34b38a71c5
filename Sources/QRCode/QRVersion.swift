/// The geometry and codeword budget of one QR code version (1–40) at error correction level M.
///
/// The number of codewords is counted from the module layout: the modules left after the finder
/// patterns with their separators, the timing patterns, the alignment patterns, the format
/// information (with the dark module) and, from version 7, the version information.
struct QRVersion: Sendable {
    /// 1...40.
    let number: Int
    /// Modules per side.
    let size: Int
    /// Row and column coordinates of alignment pattern centres (empty for version 1).
    let alignmentCenters: [Int]
    /// Modules that carry codewords or remainder bits.
    let dataModules: Int
    /// Error-correction codewords per block (level M).
    let errorCorrectionPerBlock: Int
    /// Reed–Solomon blocks (level M).
    let blockCount: Int
    /// Width of the byte-mode character count indicator.
    let characterCountBits: Int

    /// Every codeword, data and error correction.
    var totalCodewords: Int { dataModules / 8 }
    /// Bits after the last codeword, always light before masking (0, 3, 4 or 7).
    var remainderBits: Int { dataModules % 8 }
    /// Data codewords, what the error correction leaves.
    var dataCodewords: Int { totalCodewords - blockCount * errorCorrectionPerBlock }
    /// The most bytes byte mode carries: the data bits less the 4-bit mode indicator and the count.
    var byteCapacity: Int { (dataCodewords * 8 - 4 - characterCountBits) / 8 }

    static let numbers: ClosedRange<Int> = 1...40

    /// All forty versions, computed once.
    static let all: [QRVersion] = numbers.map(QRVersion.init(number:))

    /// The version `number` (1...40) from `all`.
    static func number(_ number: Int) -> QRVersion { all[number - 1] }

    /// The smallest version whose byte capacity holds `byteCount`, or nil when none does.
    static func smallest(holding byteCount: Int) -> QRVersion? {
        all.first { $0.byteCapacity >= byteCount }
    }

    private init(number: Int) {
        self.number = number
        size = 17 + 4 * number
        alignmentCenters = Self.alignmentCenters(version: number, size: size)
        errorCorrectionPerBlock = ErrorCorrectionTable.codewordsPerBlock[number - 1]
        blockCount = ErrorCorrectionTable.blockCounts[number - 1]
        characterCountBits = number < 10 ? 8 : 16

        let finders = 3 * 8 * 8  // 7x7 pattern plus its one-module separator
        let timing = 2 * (size - 16)  // row 6 and column 6 between the separators
        let format = 2 * 15 + 1  // two copies and the dark module
        let perSide = alignmentCenters.count
        // n x n centres less the three under finders; those on row or column 6 share 5 modules with timing.
        let alignment = perSide == 0 ? 0 : 25 * (perSide * perSide - 3) - 2 * 5 * (perSide - 2)
        let versionInformation = number >= 7 ? 2 * 18 : 0
        dataModules = size * size - finders - timing - format - alignment - versionInformation
    }

    /// The standard's alignment positions: the first at 6, the last 7 from the far edge, and the
    /// others spaced evenly back from the last by the smallest even step that covers the distance
    /// (the first gap takes the slack). Version 32 is the one version the standard spaces by 26.
    static func alignmentCenters(version: Int, size: Int) -> [Int] {
        guard version >= 2 else { return [] }
        let count = version / 7 + 2
        let last = size - 7
        let step = version == 32 ? 26 : 2 * ((last - 6 + 2 * (count - 1) - 1) / (2 * (count - 1)))
        return [6] + (0 ..< count - 1).map { last - step * (count - 2 - $0) }
    }
}
