/// Size limits applied while parsing requests.
public struct HTTPLimits: Sendable, Equatable {
    /// Longest request line, in bytes (answered with 414 beyond).
    public var requestLineBytes: Int = 8 * 1024
    /// Largest header section including the request line, in bytes (431 beyond).
    public var headerSectionBytes: Int = 64 * 1024
    /// Most header fields (431 beyond).
    public var headerFields: Int = 100
    /// Body cap for routes that do not set their own (413 beyond).
    public var bodyBytes: Int64 = 16 * 1024 * 1024
    /// Bodies up to this size are kept in memory; larger ones go to a temporary file.
    public var bodyMemoryBytes: Int = 256 * 1024
    /// Longest chunk-size line including extensions.
    public var chunkLineBytes: Int = 4 * 1024
    /// Most byte ranges honoured in one request before the whole file is sent instead.
    public var maxRanges: Int = 16

    /// The defaults described on each property.
    public init() {}
}
