/// The `reports` part KSCrash's standard sink posts: a JSON array of report objects. `split`
/// finds each report's bytes without decoding them, so every report is stored exactly as the
/// device wrote it and read on its own later.
public enum KSCrashBatch {
    /// Most reports in one post; KSCrash sends what a device collected since it last could.
    public static let maxReports = 1_000

    /// The byte ranges of the report objects in `bytes`: the elements of a top-level array, or the
    /// whole input when it is one object. Strict: only objects are allowed as elements, strings
    /// and nesting are scanned exactly, and anything after the closing bracket but whitespace is
    /// an error.
    public static func split(_ bytes: [UInt8], maxReports: Int = KSCrashBatch.maxReports) throws(KSCrashBatchError) -> [Range<Int>] {
        var position = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        skipWhitespace(bytes, &position)
        guard position < bytes.count else { throw .empty }
        if bytes[position] == UInt8(ascii: "{") {
            let end = try objectEnd(bytes, from: position)
            var rest = end
            skipWhitespace(bytes, &rest)
            guard rest == bytes.count else { throw .trailingData(offset: rest) }
            return [position ..< end]
        }
        guard bytes[position] == UInt8(ascii: "[") else { throw .notAnArray(offset: position) }
        position += 1
        var ranges: [Range<Int>] = []
        skipWhitespace(bytes, &position)
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
        } else {
            while true {
                skipWhitespace(bytes, &position)
                guard position < bytes.count else { throw .truncated }
                guard bytes[position] == UInt8(ascii: "{") else { throw .notAnObject(index: ranges.count, offset: position) }
                guard ranges.count < maxReports else { throw .tooManyReports(limit: maxReports) }
                let end = try objectEnd(bytes, from: position)
                ranges.append(position ..< end)
                position = end
                skipWhitespace(bytes, &position)
                guard position < bytes.count else { throw .truncated }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                guard bytes[position] == UInt8(ascii: "]") else { throw .expectedCommaOrBracket(offset: position) }
                position += 1
                break
            }
        }
        skipWhitespace(bytes, &position)
        guard position == bytes.count else { throw .trailingData(offset: position) }
        return ranges
    }

    static func skipWhitespace(_ bytes: [UInt8], _ position: inout Int) {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    /// Deepest nesting followed; real reports nest a handful of levels.
    static let maxDepth = 512

    /// The index after the `}` closing the object that starts at `start`: every bracket must be
    /// closed by its own kind, strings are skipped with their escapes.
    static func objectEnd(_ bytes: [UInt8], from start: Int) throws(KSCrashBatchError) -> Int {
        var open: [UInt8] = []
        var inString = false
        var escaped = false
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard open.count < maxDepth else { throw .tooDeep(offset: index - 1, limit: maxDepth) }
                open.append(byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard open.last == byte else { throw .unbalanced(offset: index - 1) }
                open.removeLast()
                if open.isEmpty { return index }
            default: break
            }
        }
        throw .truncated
    }
}

/// Why a KSCrash `reports` part could not be split into reports.
public enum KSCrashBatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing but whitespace.
    case empty
    /// It is neither an array nor an object.
    case notAnArray(offset: Int)
    /// An array element is not an object.
    case notAnObject(index: Int, offset: Int)
    /// It ends inside a report.
    case truncated
    /// A closing bracket that does not match the last one opened.
    case unbalanced(offset: Int)
    /// Nesting deeper than the limit.
    case tooDeep(offset: Int, limit: Int)
    /// Something other than `,` or `]` after a report.
    case expectedCommaOrBracket(offset: Int)
    /// Text after the closing bracket.
    case trailingData(offset: Int)
    /// More reports than the limit.
    case tooManyReports(limit: Int)

    /// One sentence naming the problem and the fix.
    public var description: String {
        switch self {
        case .empty: "the reports part is empty; KSCrash sends a JSON array of reports there"
        case let .notAnArray(offset): "the reports part is not a JSON array of reports (byte \(offset)); send KSCrash's standard sink output unchanged"
        case let .notAnObject(index, offset): "report \(index + 1) of the reports array is not a JSON object (byte \(offset)); send KSCrash's standard sink output unchanged"
        case .truncated: "the reports array ends in the middle of a report; the upload was cut short, send it again"
        case let .unbalanced(offset): "the reports array has a closing bracket that matches no opening one at byte \(offset); send KSCrash's standard sink output unchanged"
        case let .tooDeep(offset, limit): "the reports array nests deeper than \(limit) levels at byte \(offset); send KSCrash's standard sink output unchanged"
        case let .expectedCommaOrBracket(offset): "the reports array has something other than a comma or ] after a report at byte \(offset); send KSCrash's standard sink output unchanged"
        case let .trailingData(offset): "the reports part has text after its JSON at byte \(offset); send only the array"
        case let .tooManyReports(limit): "the reports array holds more than \(limit) reports; send them in several posts"
        }
    }
}
