/// A part's body as `SpoolingConsumer` stores it: in memory when small, else in a spool file.
public enum MultipartValue: Sendable {
    /// A body no larger than the memory threshold.
    case bytes([UInt8])
    /// A larger body, in a file that is removed when the value goes away unless moved.
    case file(SpooledFile)

    /// The body's size in bytes.
    public var count: Int64 {
        switch self {
        case .bytes(let bytes): Int64(bytes.count)
        case .file(let file): file.size
        }
    }

    /// The body as UTF-8 text when it is held in memory and valid UTF-8; nil otherwise.
    /// Form fields (not files) arrive this way.
    public var text: String? {
        guard case .bytes(let bytes) = self else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The whole body in memory (reading the spool file if there is one).
    public func readAll() throws(MultipartError) -> [UInt8] {
        switch self {
        case .bytes(let bytes): bytes
        case .file(let file): try file.readAll()
        }
    }
}
