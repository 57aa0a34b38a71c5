/// The error-correction block structure of ISO/IEC 18004 (table 9) for level M, the one level this
/// module encodes. Everything else about a version's capacity is derived from these two columns and
/// the version's module layout (see `QRVersion`), so no capacity number is written down anywhere.
enum ErrorCorrectionTable {
    /// Error-correction codewords in each block, by version (index 0 is version 1).
    static let codewordsPerBlock: [Int] = [
        10, 16, 26, 18, 24, 16, 18, 22, 22, 26,
        30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
        26, 28, 28, 28, 28, 28, 28, 28, 28, 28,
        28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
    ]

    /// Reed–Solomon blocks the codewords are split into, by version (index 0 is version 1).
    static let blockCounts: [Int] = [
        1, 1, 1, 2, 2, 4, 4, 4, 5, 5,
        5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
        17, 17, 18, 20, 21, 23, 25, 26, 28, 29,
        31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
    ]
}
