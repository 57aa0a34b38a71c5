/// The boundary of a multipart body (RFC 2046 §5.1.1), validated.
public struct MultipartBoundary: Sendable, Equatable, CustomStringConvertible {
    /// The boundary as given, without the leading `--`.
    public let value: String

    /// `CRLF "--" boundary`: the delimiter searched for in the body. The first boundary of a body
    /// may also stand at its very start without the CRLF.
    let delimiter: [UInt8]

    /// Longest boundary RFC 2046 allows.
    public static let maximumLength = 70

    /// Validates a boundary: 1 to 70 `bchars`, not ending in a space.
    public init(_ value: String) throws(MultipartError) {
        let bytes = Array(value.utf8)
        guard !bytes.isEmpty else { throw .invalidBoundary(boundary: value, reason: "it is empty") }
        guard bytes.count <= Self.maximumLength else {
            throw .invalidBoundary(boundary: value, reason: "it is \(bytes.count) characters long, more than \(Self.maximumLength)")
        }
        if let bad = bytes.first(where: { !Self.isBoundaryCharacter($0) }) {
            throw .invalidBoundary(boundary: value, reason: "it contains \(HeaderParameters.describe(bad))")
        }
        guard bytes.last != HeaderParameters.space else { throw .invalidBoundary(boundary: value, reason: "it ends with a space") }
        self.value = value
        self.delimiter = Array("\r\n--".utf8) + bytes
    }

    /// Reads the boundary from a request's Content-Type, which must be `multipart/form-data`.
    /// Parameter names are case-insensitive; the value may be quoted (with backslash escapes) or
    /// not. Unquoted boundaries may use every `bchar` but the space: RFC 2046 asks senders to quote
    /// the ones with `=`, `/`, `:`, `?`, `(`, `)` or `,`, but common mail and HTTP libraries do not.
    public init(contentType: String) throws(MultipartError) {
        let text = Array(contentType.utf8)
        let mediaType: String
        let end: Int
        let parameters: [HeaderParameter]
        do {
            (mediaType, end) = try HeaderParameters.leadingToken(text, slash: true)
        } catch {
            throw .malformedContentType(contentType: contentType, reason: error.reason)
        }
        guard mediaType == "multipart/form-data" else { throw .notFormData(contentType: contentType) }
        do {
            parameters = try HeaderParameters.parse(text, from: end)
        } catch {
            throw .malformedContentType(contentType: contentType, reason: error.reason)
        }
        let boundaries = parameters.filter { $0.name == "boundary" }
        guard let boundary = boundaries.first else { throw .missingBoundary(contentType: contentType) }
        guard boundaries.count == 1 else {
            throw .malformedContentType(contentType: contentType, reason: "it has \(boundaries.count) boundary parameters")
        }
        try self.init(String(decoding: boundary.value, as: UTF8.self))
    }

    /// `bchars` of RFC 2046 §5.1.1: letters, digits, space and `'()+_,-./:=?`.
    static func isBoundaryCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        // space ' ( ) + , - . / : = ? _
        case 0x20, 0x27, 0x28, 0x29, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x3A, 0x3D, 0x3F, 0x5F:
            true
        default:
            false
        }
    }

    /// The boundary.
    public var description: String { value }
}
