/// A failure to read binary data: the bytes ran out, or they do not make sense.
///
/// Parsers wrap this in their own, format-specific errors where they can say more
/// (which load command, which DWARF unit); on its own it still names the offset.
public enum BinaryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data ended `needed - available` bytes too early at `at`.
    case truncated(at: Int, needed: Int, available: Int)
    /// An offset or range points outside data of `size` bytes.
    case outOfBounds(offset: Int, size: Int, length: Int = 0)
    /// The bytes at `at` are present but not valid for the format.
    case invalid(at: Int, String)

    /// A sentence naming the offset and what went wrong.
    public var description: String {
        switch self {
        case let .truncated(at, needed, available):
            return "data is truncated at offset \(at): needed \(needed) bytes but only \(available) remain; the file may be incomplete, so copy it again"
        case let .outOfBounds(offset, size, length):
            if length > 0 {
                let (end, overflow) = offset.addingReportingOverflow(length)
                return "range \(offset)..<\(overflow ? "end" : String(end)) lies outside the \(size)-byte data; the file is corrupt or truncated"
            }
            return "offset \(offset) lies outside the \(size)-byte data; the file is corrupt or truncated"
        case let .invalid(at, reason):
            return "invalid data at offset \(at): \(reason)"
        }
    }
}
