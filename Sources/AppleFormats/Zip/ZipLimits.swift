/// Caps that stop zip bombs before they fill the disk or memory.
public struct ZipLimits: Sendable, Equatable {
    /// Maximum number of entries in the central directory.
    public var maxEntries: Int
    /// Maximum sum of the declared uncompressed sizes.
    public var maxTotalUncompressedSize: UInt64
    /// Maximum uncompressed-to-compressed ratio, of every entry and of the archive as a whole…
    public var maxCompressionRatio: UInt64
    /// …beyond this many bytes each entry may expand to anyway, since tiny files compress absurdly
    /// well (an entry may declare `maxCompressionRatio` × its compressed size plus this)…
    public var entryRatioAllowance: UInt64
    /// …and beyond this many bytes for the whole archive: a thousand 1000 KB entries of zeros pass
    /// one by one only with a large allowance, never all together.
    public var totalRatioAllowance: UInt64

    /// Defaults sized for real iOS builds: a large game ipa has ~50k files and a few GB, and as a
    /// whole compresses a few times, never a hundred.
    public init(maxEntries: Int = 200_000, maxTotalUncompressedSize: UInt64 = 16 << 30,
                maxCompressionRatio: UInt64 = 200, entryRatioAllowance: UInt64 = 256 << 10, totalRatioAllowance: UInt64 = 1 << 20) {
        self.maxEntries = maxEntries
        self.maxTotalUncompressedSize = maxTotalUncompressedSize
        self.maxCompressionRatio = maxCompressionRatio
        self.entryRatioAllowance = entryRatioAllowance
        self.totalRatioAllowance = totalRatioAllowance
    }

    /// Whether `uncompressed` bytes from `compressed` stay within the ratio, `allowance` aside.
    func allows(_ uncompressed: UInt64, from compressed: UInt64, allowance: UInt64) -> Bool {
        let (scaled, overflow) = compressed.multipliedReportingOverflow(by: maxCompressionRatio)
        if overflow { return true }
        let (limit, sumOverflow) = scaled.addingReportingOverflow(allowance)
        return sumOverflow || uncompressed <= limit
    }

    /// "ratio 1000:1" (or "unbounded" when nothing is compressed).
    static func ratioText(_ uncompressed: UInt64, _ compressed: UInt64) -> String {
        compressed == 0 ? "unbounded ratio" : "ratio \(uncompressed / compressed):1"
    }
}
