/// Caps that stop zip bombs before they fill the disk or memory.
public struct ZipLimits: Sendable, Equatable {
    /// Maximum number of entries in the central directory.
    public var maxEntries: Int
    /// Maximum sum of the declared uncompressed sizes.
    public var maxTotalUncompressedSize: UInt64
    /// Maximum uncompressed-to-compressed ratio of one entry…
    public var maxCompressionRatio: UInt64
    /// …applied only to entries whose uncompressed size exceeds this, since tiny files compress absurdly well.
    public var ratioCheckThreshold: UInt64

    /// Defaults sized for real iOS builds: a large game ipa has ~50k files and a few GB.
    public init(maxEntries: Int = 200_000, maxTotalUncompressedSize: UInt64 = 16 << 30,
                maxCompressionRatio: UInt64 = 200, ratioCheckThreshold: UInt64 = 1 << 20) {
        self.maxEntries = maxEntries
        self.maxTotalUncompressedSize = maxTotalUncompressedSize
        self.maxCompressionRatio = maxCompressionRatio
        self.ratioCheckThreshold = ratioCheckThreshold
    }
}
