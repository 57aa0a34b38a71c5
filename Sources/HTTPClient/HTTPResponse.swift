/// A response: the status, the header fields of the final response, and the body.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// Header fields of the final response, in order.
    public var headers: [HTTPHeaderField]
    /// The body.
    public var body: [UInt8]

    /// A response.
    public init(status: Int, headers: [HTTPHeaderField] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of the header field `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200 ..< 300).contains(status) }

    /// Parses raw header lines as libcurl hands them over (status lines of interim and redirected
    /// responses included): only the fields after the last status line are kept.
    static func headerFields(_ raw: [UInt8]) -> [HTTPHeaderField] {
        var fields: [HTTPHeaderField] = []
        for line in String(decoding: raw, as: UTF8.self).split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }) {
            if line.hasPrefix("HTTP/") {
                fields.removeAll()
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingSpaces
            let value = line[line.index(after: colon)...].trimmingSpaces
            if !name.isEmpty { fields.append(HTTPHeaderField(String(name), String(value))) }
        }
        return fields
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
