import AppleFormats
import BetaServer

/// Cursor pagination of API lists: `?limit=N` (1 to 500, default 100) and the opaque `?cursor=`
/// a previous page returned as `nextCursor` (also in a `Link: <…>; rel="next"` header).
///
/// A cursor names the sort key of the last item sent, not a position, so items added or removed
/// between two requests never make a page repeat or skip one that stayed.
struct Page<Item> {
    var items: [Item]
    /// The cursor of the next page; nil on the last one.
    var nextCursor: String?

    static var defaultLimit: Int { 100 }
    static var maximumLimit: Int { 500 }

    /// The page of `all` (sorted by `key`, ascending in the list's own order) that `request` asks for.
    /// `key` must be unique and must order the list: the page holds the items after the cursor's key.
    init(_ all: [Item], request: Request, key: (Item) -> PageKey) throws(APIProblem) {
        let limit = try Self.limit(request)
        var start = all.startIndex
        if let cursor = request.queryValue("cursor") {
            guard let after = PageKey(cursor: cursor) else {
                throw APIProblem(.invalidCursor, "the cursor \"\(String(cursor.prefix(80)))\" was not made by this list; pass the nextCursor of the previous page, or no cursor for the first page")
            }
            start = all.firstIndex { key($0) > after } ?? all.endIndex
        }
        let end = min(all.endIndex, start + limit)
        items = Array(all[start ..< end])
        nextCursor = end < all.endIndex && end > start ? key(all[end - 1]).cursor : nil
    }

    static func limit(_ request: Request) throws(APIProblem) -> Int {
        guard let text = request.queryValue("limit") else { return defaultLimit }
        guard let limit = Int(text), (1 ... maximumLimit).contains(limit) else {
            throw APIProblem(.badRequest, "limit=\(String(text.prefix(40))) is not a number from 1 to \(maximumLimit); leave it out for pages of \(defaultLimit)")
        }
        return limit
    }

    /// The `Link` header value for the next page, relative to the request's path.
    func linkHeader(_ request: Request) -> String? {
        guard let nextCursor else { return nil }
        var query = "cursor=\(nextCursor)"
        if let limit = request.queryValue("limit") { query += "&limit=\(PageKey.percentEncoded(limit))" }
        return "<\(request.path)?\(query)>; rel=\"next\""
    }
}

/// A list's sort key: descending ids become ascending by negation, text sorts as bytes.
struct PageKey: Comparable, Sendable {
    var number: Int64
    var text: String

    init(number: Int64 = 0, text: String = "") {
        self.number = number
        self.text = text
    }

    static func < (lhs: PageKey, rhs: PageKey) -> Bool {
        lhs.number != rhs.number ? lhs.number < rhs.number : Array(lhs.text.utf8).lexicographicallyPrecedes(Array(rhs.text.utf8))
    }

    /// `c1.<number>.<text>` in base64url: opaque to clients, so the form may change without notice.
    var cursor: String {
        String(decoding: Base64.encode(Array("c1.\(number).\(text)".utf8), .urlSafeUnpadded), as: UTF8.self)
    }

    init?(cursor: String) {
        guard cursor.utf8.count <= 1024, let bytes = Base64URL.decode(cursor),
              let plain = String(validating: bytes, as: UTF8.self), plain.hasPrefix("c1.") else { return nil }
        let rest = plain.dropFirst(3)
        guard let dot = rest.firstIndex(of: "."), let number = Int64(rest[..<dot]) else { return nil }
        self.number = number
        self.text = String(rest[rest.index(after: dot)...])
    }

    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if (0x30 ... 0x39).contains(byte) || (0x41 ... 0x5A).contains(byte) || (0x61 ... 0x7A).contains(byte) || byte == 0x2D || byte == 0x5F {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}

/// base64url without padding, decoded strictly (cursors come from clients).
enum Base64URL {
    static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case 0x41 ... 0x5A: values.append(byte - 0x41)
            case 0x61 ... 0x7A: values.append(byte - 0x61 + 26)
            case 0x30 ... 0x39: values.append(byte - 0x30 + 52)
            case 0x2D: values.append(62)
            case 0x5F: values.append(63)
            default: return nil
            }
        }
        guard values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        var index = 0
        while index < values.count {
            let chunk = values[index ..< min(index + 4, values.count)]
            var accumulator: UInt32 = 0
            for value in chunk { accumulator = accumulator << 6 | UInt32(value) }
            accumulator <<= UInt32(6 * (4 - chunk.count))
            let produced = chunk.count - 1
            for shift in [16, 8, 0].prefix(produced) { out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(shift))) }
            index += 4
        }
        return out
    }
}
