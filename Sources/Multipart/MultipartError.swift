/// Why a multipart/form-data body, or its Content-Type, was refused.
///
/// Every message is one sentence naming the part (by position and field name once known) and
/// what the sender or the operator can change. `category` tells a server which status to answer.
public enum MultipartError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The Content-Type is not `multipart/form-data`.
    case notFormData(contentType: String)
    /// The Content-Type has no `boundary` parameter.
    case missingBoundary(contentType: String)
    /// The Content-Type cannot be read (bad parameter syntax, a repeated boundary).
    case malformedContentType(contentType: String, reason: String)
    /// The boundary is empty, longer than 70 characters or uses characters RFC 2046 does not allow.
    case invalidBoundary(boundary: String, reason: String)
    /// The body ended without ever containing the boundary at the start of a line.
    case boundaryNotFound(boundary: String)
    /// The body ended before the closing boundary; `part` is the part it ended in, nil when it
    /// ended between parts (inside a boundary line).
    case truncated(boundary: String, part: Part?)
    /// The text before the first boundary is longer than the limit.
    case preambleTooLarge(limit: Int)
    /// The text after the closing boundary is longer than the limit.
    case epilogueTooLarge(limit: Int)
    /// A boundary line is followed by something other than `--`, spaces and CRLF.
    case malformedBoundaryLine(after: Part?, reason: String)
    /// A part's header section breaks the header syntax (bare CR or LF, folding, a bad field).
    case malformedHeader(part: Part, reason: String)
    /// A part has no Content-Disposition header field.
    case missingContentDisposition(part: Part)
    /// A part's Content-Disposition is not `form-data` with a name, or a parameter is malformed.
    case invalidContentDisposition(part: Part, reason: String)
    /// A part uses a Content-Transfer-Encoding other than the identity ones (7bit, 8bit, binary).
    case unsupportedTransferEncoding(part: Part, encoding: String)
    /// More parts than the limit.
    case tooManyParts(limit: Int)
    /// A part's header section is larger than the limit.
    case headerSectionTooLarge(part: Part, limit: Int)
    /// A part's body is larger than the limit for its field.
    case partTooLarge(part: Part, limit: Int64)
    /// The whole body is larger than the limit.
    case totalTooLarge(limit: Int64)
    /// Storing a part failed (creating, writing or moving its spool file).
    case storageFailed(part: Part?, reason: String)
    /// Reading the body from a file failed.
    case readFailed(path: String, reason: String)
    /// A caller-provided consumer (or consumer factory) threw an error of its own.
    case consumerFailed(part: Part, reason: String)
    /// `feed` or `finish` was called after `finish` returned.
    case alreadyFinished

    /// One part of the body, as errors name it.
    public struct Part: Equatable, Sendable, CustomStringConvertible {
        /// Its position, counting from 1 as people do.
        public var number: Int
        /// Its form field name, when its headers were read.
        public var name: String?

        /// A part reference.
        public init(number: Int, name: String? = nil) {
            self.number = number
            self.name = name
        }

        /// `part 2 ("ipa")`, or `part 2` before its name is known.
        public var description: String {
            guard let name else { return "part \(number)" }
            return "part \(number) (\"\(MultipartError.shortened(name))\")"
        }
    }

    /// What kind of problem this is, for choosing a response.
    public enum Category: Sendable, Equatable {
        /// The body or its Content-Type is malformed (HTTP 400).
        case malformed
        /// A configured limit was exceeded (HTTP 413).
        case limitExceeded
        /// Storing or reading failed on this side (HTTP 500).
        case storage
        /// The caller used the parser wrongly or its consumer failed.
        case caller
    }

    /// What kind of problem this is.
    public var category: Category {
        switch self {
        case .preambleTooLarge, .epilogueTooLarge, .tooManyParts, .headerSectionTooLarge, .partTooLarge, .totalTooLarge:
            .limitExceeded
        case .storageFailed, .readFailed:
            .storage
        case .consumerFailed, .alreadyFinished:
            .caller
        default:
            .malformed
        }
    }

    /// The problem and the fix, in one sentence.
    public var description: String {
        switch self {
        case let .notFormData(contentType):
            "the Content-Type \"\(Self.shortened(contentType))\" is not multipart/form-data; send the form as multipart/form-data with a boundary parameter"
        case let .missingBoundary(contentType):
            "the Content-Type \"\(Self.shortened(contentType))\" has no boundary parameter; add boundary=… naming the delimiter used in the body"
        case let .malformedContentType(contentType, reason):
            "the Content-Type \"\(Self.shortened(contentType))\" cannot be read: \(reason); send multipart/form-data; boundary=… with well-formed parameters"
        case let .invalidBoundary(boundary, reason):
            "the multipart boundary \"\(Self.shortened(boundary))\" is invalid: \(reason); use 1 to 70 letters, digits or '()+_,-./:=? characters"
        case let .boundaryNotFound(boundary):
            "the body never contains the boundary \"--\(Self.shortened(boundary))\" at the start of a line; check that the Content-Type boundary matches the body and that lines end with CRLF"
        case let .truncated(boundary, part):
            "the body ended \(part.map { "inside \($0)" } ?? "inside a boundary line") without the closing boundary \"--\(Self.shortened(boundary))--\"; send the complete body"
        case let .preambleTooLarge(limit):
            "the text before the first boundary is longer than \(limit) bytes; start the body with the boundary line"
        case let .epilogueTooLarge(limit):
            "the text after the closing boundary is longer than \(limit) bytes; end the body after the closing boundary"
        case let .malformedBoundaryLine(after, reason):
            "the boundary line \(after.map { "after \($0)" } ?? "starting the first part") \(reason); end boundary lines with CRLF (or -- for the last) and choose a boundary that does not occur in the content"
        case let .malformedHeader(part, reason):
            "the headers of \(part) are malformed: \(reason); send one \"Name: value\" field per CRLF-terminated line"
        case let .missingContentDisposition(part):
            "\(part) has no Content-Disposition header; every multipart/form-data part needs Content-Disposition: form-data; name=\"…\""
        case let .invalidContentDisposition(part, reason):
            "the Content-Disposition of \(part) is invalid: \(reason); send form-data; name=\"…\" with an optional filename=\"…\""
        case let .unsupportedTransferEncoding(part, encoding):
            "\(part) uses Content-Transfer-Encoding \"\(Self.shortened(encoding))\"; send the part's bytes unencoded (binary)"
        case let .tooManyParts(limit):
            "the body has more than \(limit) parts; send fewer fields or files per request"
        case let .headerSectionTooLarge(part, limit):
            "the headers of \(part) are larger than \(limit) bytes; send shorter header fields"
        case let .partTooLarge(part, limit):
            "\(part) is larger than its limit of \(limit) bytes; send a smaller file or raise the limit for this field"
        case let .totalTooLarge(limit):
            "the body is larger than the limit of \(limit) bytes; send fewer or smaller files or raise the total limit"
        case let .storageFailed(part, reason):
            "cannot store \(part.map(\.description) ?? "a part"): \(reason); check the spool directory's space and permissions"
        case let .readFailed(path, reason):
            "cannot read the body from \(path): \(reason); check that the file exists and is readable"
        case let .consumerFailed(part, reason):
            "storing \(part) failed: \(reason)"
        case .alreadyFinished:
            "the multipart parser was used after finish() returned; create a new parser for each body"
        }
    }

    /// Text from the wire is quoted in messages at most this long, so a hostile value cannot flood a log.
    static func shortened(_ text: String) -> String {
        let limit = 120
        let clean = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        guard clean.count > limit else { return clean }
        return clean.prefix(limit) + "…"
    }
}
