/// Incremental, strict parser for a request line and header section (RFC 9112 §2-§6).
///
/// Feed it the buffered bytes from the start of the request each time more
/// arrive; it remembers how far it has scanned, so a client trickling one byte
/// at a time costs linear, not quadratic, work. Framing problems (bare CR or
/// LF, oversize lines) are reported as soon as they are seen rather than when
/// the head completes, so a malformed request is answered promptly.
public struct RequestHeadParser: Sendable {
    /// The outcome of feeding bytes.
    public enum Result: Sendable {
        /// More bytes are needed.
        case incomplete
        /// A full head was parsed from the first `consumed` bytes.
        case complete(RequestHead, consumed: Int)
    }

    /// The limits enforced.
    public let limits: HTTPLimits
    private var scanned = 0
    private var lineStart = 0
    private var lines = 0

    /// Creates a parser enforcing `limits`.
    public init(limits: HTTPLimits = HTTPLimits()) { self.limits = limits }

    /// Forgets progress, ready for the next request.
    public mutating func reset() {
        scanned = 0
        lineStart = 0
        lines = 0
    }

    /// Number of leading empty lines (CRLF pairs) in `bytes`; RFC 9112 §2.2 lets a server skip them.
    public static func leadingEmptyLines(_ bytes: UnsafeRawBufferPointer) -> Int {
        var index = 0
        while index + 1 < bytes.count, bytes[index] == ASCII.cr, bytes[index + 1] == ASCII.lf { index += 2 }
        return index
    }

    /// Scans newly arrived bytes; `bytes` must start at the first byte of the request line.
    public mutating func parse(_ bytes: UnsafeRawBufferPointer) throws(HTTPParseError) -> Result {
        var index = scanned
        let end = bytes.count
        // Every limit is checked at the byte that breaks it, in order, so the error reported is the
        // first problem in the bytes however they arrived: all at once or a few at a time.
        while index < end {
            if index >= limits.headerSectionBytes { throw .headerSectionTooLarge(limit: limits.headerSectionBytes) }
            let byte = bytes[index]
            if byte == ASCII.cr {
                if index + 1 >= end { break }  // wait to see what follows
                if bytes[index + 1] != ASCII.lf { throw .bareCarriageReturn }
                index += 1
                continue
            }
            if byte == ASCII.lf {
                if index == 0 || bytes[index - 1] != ASCII.cr { throw .bareLineFeed }
                let lineLength = index - 1 - lineStart
                if lineLength == 0 && lines > 0 {
                    scanned = index + 1
                    let head = try Self.parseHead(UnsafeRawBufferPointer(rebasing: bytes[0..<index + 1]),
                                                  limits: limits)
                    return .complete(head, consumed: index + 1)
                }
                lines += 1
                if lines > limits.headerFields + 1 { throw .tooManyHeaderFields(limit: limits.headerFields) }
                lineStart = index + 1
            } else if lines == 0 && index - lineStart >= limits.requestLineBytes {
                throw .requestLineTooLong(limit: limits.requestLineBytes)
            }
            index += 1
        }
        scanned = index
        return .incomplete
    }

    /// Parses a complete head (ending with an empty line) already checked for CRLF framing.
    static func parseHead(_ bytes: UnsafeRawBufferPointer, limits: HTTPLimits) throws(HTTPParseError) -> RequestHead {
        if bytes.count > limits.headerSectionBytes { throw .headerSectionTooLarge(limit: limits.headerSectionBytes) }
        var lineEnd = 0
        while bytes[lineEnd] != ASCII.cr { lineEnd += 1 }
        let (method, target, version) = try parseRequestLine(UnsafeRawBufferPointer(rebasing: bytes[0..<lineEnd]))
        var headers = HTTPHeaders()
        var position = lineEnd + 2
        while position < bytes.count - 2 {
            var end = position
            while bytes[end] != ASCII.cr { end += 1 }
            let (name, value) = try parseField(UnsafeRawBufferPointer(rebasing: bytes[position..<end]))
            headers.add(name, value)
            position = end + 2
        }
        return try HeadSemantics.validate(method: method, target: target, version: version, headers: headers)
    }

    static func parseRequestLine(_ line: UnsafeRawBufferPointer) throws(HTTPParseError)
        -> (HTTPMethod, String, HTTPVersion) {
        guard let firstSpace = line.firstIndex(of: ASCII.space) else { throw .malformedRequestLine }
        guard firstSpace > 0 else { throw .malformedRequestLine }
        for index in 0..<firstSpace where !ASCII.isToken(line[index]) { throw .invalidMethod }
        var targetEnd = firstSpace + 1
        while targetEnd < line.count, line[targetEnd] != ASCII.space {
            guard ASCII.isVisible(line[targetEnd]) else {
                if line[targetEnd] == ASCII.tab { throw .malformedRequestLine }
                throw .invalidTarget
            }
            targetEnd += 1
        }
        guard targetEnd > firstSpace + 1, targetEnd < line.count else { throw .malformedRequestLine }
        let versionBytes = UnsafeRawBufferPointer(rebasing: line[(targetEnd + 1)...])
        guard versionBytes.count == 8 else {
            if versionBytes.contains(ASCII.space) { throw .malformedRequestLine }
            throw .malformedVersion
        }
        guard versionBytes.starts(with: "HTTP/".utf8), versionBytes[6] == UInt8(ascii: "."),
              let major = digit(versionBytes[5]), let minor = digit(versionBytes[7]) else { throw .malformedVersion }
        let version = HTTPVersion(major: major, minor: minor)
        guard major == 1 else { throw .unsupportedVersion(version.description) }
        let method = HTTPMethod(String(decoding: UnsafeRawBufferPointer(rebasing: line[0..<firstSpace]), as: UTF8.self))
        let target = String(decoding: UnsafeRawBufferPointer(rebasing: line[(firstSpace + 1)..<targetEnd]), as: UTF8.self)
        // A higher HTTP/1.x minor version is handled as 1.1 (RFC 9110 §2.5).
        return (method, target, minor >= 1 ? .http11 : .http10)
    }

    static func parseField(_ line: UnsafeRawBufferPointer) throws(HTTPParseError) -> (String, String) {
        guard let first = line.first else { throw .invalidHeaderName }
        if first == ASCII.space || first == ASCII.tab { throw .obsoleteLineFolding }
        var colon = 0
        while colon < line.count, line[colon] != ASCII.colon {
            let byte = line[colon]
            if byte == ASCII.space || byte == ASCII.tab {
                throw line[colon...].contains(ASCII.colon) ? .whitespaceBeforeColon : .invalidHeaderName
            }
            guard ASCII.isToken(byte) else { throw .invalidHeaderName }
            colon += 1
        }
        guard colon > 0, colon < line.count else { throw .invalidHeaderName }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: line[0..<colon]), as: UTF8.self)
        var start = colon + 1
        var end = line.count
        while start < end, line[start] == ASCII.space || line[start] == ASCII.tab { start += 1 }
        while end > start, line[end - 1] == ASCII.space || line[end - 1] == ASCII.tab { end -= 1 }
        for index in start..<end where !ASCII.isFieldValueByte(line[index]) { throw .invalidHeaderValue(name: name) }
        let value = String(decoding: UnsafeRawBufferPointer(rebasing: line[start..<end]), as: UTF8.self)
        return (name, value)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }
}
