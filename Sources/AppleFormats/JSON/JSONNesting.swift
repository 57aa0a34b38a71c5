/// How deep JSON from outside may nest, and a check of it that needs no parse.
///
/// Real crash reports nest fewer than 30 levels. `JSONParser` reads without recursion, but the
/// `JSONValue` trees it makes are walked recursively, and `JSONDecoder`'s scanner recurses, so
/// every JSON text from outside is held to `maximumDepth` before either reads it: far from the end
/// of the smallest thread stack that reads one (a server worker's, in a debug build).
public enum JSONNesting {
    /// Deepest nesting of arrays and objects accepted (`[[]]` nests 2 deep).
    public static let maximumDepth = 100

    /// Arrays and objects nested past the limit.
    public struct TooDeep: Error, Equatable, Sendable, CustomStringConvertible {
        /// Where the array or object that went past the limit opens.
        public var offset: Int
        /// How deep it is.
        public var depth: Int
        /// The limit.
        public var limit: Int

        /// What went wrong and what real files look like.
        public var reason: String {
            "arrays and objects nest \(depth) levels deep, more than the \(limit) allowed; real reports nest fewer than 30"
        }

        /// The reason and the byte offset.
        public var description: String { "\(reason) at byte \(offset)" }
    }

    /// Throws when arrays and objects in `bytes` nest deeper than `limit`, scanning once without
    /// recursion (strings are skipped, so brackets inside them do not count). Says nothing of
    /// whether the text is otherwise valid JSON.
    public static func check(_ bytes: some Collection<UInt8>, limit: Int = maximumDepth) throws(TooDeep) {
        var depth = 0, offset = 0
        var inString = false, escaped = false
        for byte in bytes {
            defer { offset += 1 }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                guard depth <= limit else { throw TooDeep(offset: offset, depth: depth, limit: limit) }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
            default: break
            }
        }
    }
}
