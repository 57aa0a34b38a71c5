/// How much a multipart body may hold. Every limit is checked at the byte that breaks it, so the
/// same body gives the same error however it is split into chunks.
public struct MultipartLimits: Sendable, Equatable {
    /// Most parts in one body.
    public var maxParts: Int
    /// Largest header section of one part, including the empty line that ends it.
    public var headerBytesPerPart: Int
    /// Largest part body for fields without their own limit.
    public var bytesPerPart: Int64
    /// Largest part body per field name, e.g. `["report": 10 << 20, "ipa": 2 << 30]`.
    public var bytesPerField: [String: Int64]
    /// Largest whole body.
    public var totalBytes: Int64
    /// Longest text skipped before the first boundary.
    public var preambleBytes: Int
    /// Longest text skipped after the closing boundary.
    public var epilogueBytes: Int

    /// Limits for a form with a few small files; raise them per endpoint for large uploads.
    public init(maxParts: Int = 64, headerBytesPerPart: Int = 8 * 1024, bytesPerPart: Int64 = 10 << 20,
                bytesPerField: [String: Int64] = [:], totalBytes: Int64 = 64 << 20,
                preambleBytes: Int = 16 * 1024, epilogueBytes: Int = 16 * 1024) {
        self.maxParts = maxParts
        self.headerBytesPerPart = headerBytesPerPart
        self.bytesPerPart = bytesPerPart
        self.bytesPerField = bytesPerField
        self.totalBytes = totalBytes
        self.preambleBytes = preambleBytes
        self.epilogueBytes = epilogueBytes
    }

    /// The body limit for field `name`.
    public func bytes(forField name: String) -> Int64 { bytesPerField[name] ?? bytesPerPart }
}
