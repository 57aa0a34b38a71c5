/// An `application/x-www-form-urlencoded` form or query string: its fields in order, repeated
/// names kept (WHATWG URL Standard §5.1, the format browsers post and put in query strings).
///
/// Decoding is strict where lenient decoders lose data silently: a malformed `%` escape or bytes
/// that do not decode to UTF-8 are errors naming the field, not kept as typed or replaced by U+FFFD.
/// `+` is a space; empty pairs (`a=1&&b=2`) are skipped; a pair without `=` has the empty value.
public struct URLEncodedForm: Sendable, Equatable {
    /// One `name=value` pair, decoded.
    public struct Field: Sendable, Equatable {
        /// The field name.
        public var name: String
        /// The field value.
        public var value: String

        /// A field.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// How much a form may hold.
    public struct Limits: Sendable, Equatable {
        /// Most fields (pairs) in one form.
        public var maxFields: Int
        /// Largest encoded form, in bytes.
        public var maxBytes: Int

        /// Limits for dashboard forms: 256 fields, 64 KiB.
        public init(maxFields: Int = 256, maxBytes: Int = 64 * 1024) {
            self.maxFields = maxFields
            self.maxBytes = maxBytes
        }
    }

    /// The fields in the order they were sent.
    public var fields: [Field]

    /// A form with `fields`, for encoding.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Decodes an encoded form (a request body).
    public init(decoding bytes: some Collection<UInt8>, limits: Limits = Limits()) throws(URLEncodedFormError) {
        guard bytes.count <= limits.maxBytes else { throw .tooLarge(size: Int64(bytes.count), limit: limits.maxBytes) }
        fields = []
        for pair in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            guard fields.count < limits.maxFields else { throw .tooManyFields(limit: limits.maxFields) }
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let rawName = pair[..<(equals ?? pair.endIndex)]
            let rawValue = equals.map { pair[pair.index(after: $0)...] } ?? pair[pair.endIndex...]
            let label = String(decoding: rawName, as: UTF8.self)
            let name = try Self.decodeComponent(rawName, field: label)
            let value = try Self.decodeComponent(rawValue, field: name)
            fields.append(Field(name, value))
        }
    }

    /// Decodes a query string (the part of a target after `?`, without it).
    public init(query: String, limits: Limits = Limits()) throws(URLEncodedFormError) {
        try self.init(decoding: Array(query.utf8), limits: limits)
    }

    /// Decodes a request body; a body larger than the limit is refused before it is read.
    public init(body: RequestBody, limits: Limits = Limits()) throws(URLEncodedFormError) {
        guard body.count <= Int64(limits.maxBytes) else { throw .tooLarge(size: body.count, limit: limits.maxBytes) }
        let bytes: [UInt8]
        do {
            bytes = try body.bytes(limit: Int64(limits.maxBytes))
        } catch {
            throw .unreadableBody("\(error)")
        }
        try self.init(decoding: bytes, limits: limits)
    }

    /// The value of the first field called `name`.
    public subscript(name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// The values of every field called `name`, in order.
    public func values(of name: String) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }

    /// Adds a field at the end.
    public mutating func append(_ name: String, _ value: String) {
        fields.append(Field(name, value))
    }

    /// The form encoded for a body or a query string: `name=value` pairs joined by `&`, each
    /// component encoded with `encode(_:)`.
    public var encoded: String {
        fields.map { Self.encode($0.name) + "=" + Self.encode($0.value) }.joined(separator: "&")
    }

    /// Encodes one name or value as the WHATWG urlencoded serializer does: letters, digits and
    /// `*-._` stay, space becomes `+`, every other UTF-8 byte becomes `%XX` (upper case). The
    /// result is safe inside a query string and an HTML attribute.
    public static func encode(_ component: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(component.utf8.count)
        for byte in component.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                bytes.append(byte)
            case ASCII.space:
                bytes.append(UInt8(ascii: "+"))
            default:
                bytes.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Decodes one component, refusing malformed escapes and bytes that are not UTF-8.
    static func decodeComponent(_ raw: some Collection<UInt8>, field: String) throws(URLEncodedFormError) -> String {
        guard let bytes = PercentDecoding.decodedBytes(raw, plusAsSpace: true) else { throw .malformedEscape(field: field) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8(field: field) }
        return text
    }
}

extension PercentDecoding {
    /// The bytes `%XX` escapes (and `+` as space) stand for; nil for a malformed escape.
    /// `decodeStrict` returns text with invalid UTF-8 replaced, which forms must refuse instead,
    /// so this works on bytes and leaves UTF-8 validation to the caller.
    static func decodedBytes(_ raw: some Collection<UInt8>, plusAsSpace: Bool) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var iterator = raw.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(ASCII.hexValue), let low = iterator.next().flatMap(ASCII.hexValue) else { return nil }
                bytes.append(high << 4 | low)
            } else if plusAsSpace && byte == UInt8(ascii: "+") {
                bytes.append(ASCII.space)
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }
}

/// Why an urlencoded form or query string was refused.
public enum URLEncodedFormError: Error, Equatable, Sendable, CustomStringConvertible, HTTPResponseError {
    /// A `%` not followed by two hexadecimal digits, in the named field.
    case malformedEscape(field: String)
    /// The named field does not decode to UTF-8.
    case invalidUTF8(field: String)
    /// More fields than the limit.
    case tooManyFields(limit: Int)
    /// The encoded form is larger than the limit.
    case tooLarge(size: Int64, limit: Int)
    /// The spooled body could not be read.
    case unreadableBody(String)

    /// 413 for the limits, 500 for an unreadable body, else 400.
    public var httpStatus: HTTPStatus {
        switch self {
        case .tooManyFields, .tooLarge: .contentTooLarge
        case .unreadableBody: .internalServerError
        case .malformedEscape, .invalidUTF8: .badRequest
        }
    }

    /// The problem and the fix, in one sentence.
    public var description: String {
        switch self {
        case let .malformedEscape(field):
            "the form field \"\(Self.quoted(field))\" has a % not followed by two hexadecimal digits; encode a literal % as %25"
        case let .invalidUTF8(field):
            "the form field \"\(Self.quoted(field))\" is not UTF-8 once decoded; send the form in UTF-8 (accept-charset=\"UTF-8\")"
        case let .tooManyFields(limit):
            "the form has more than \(limit) fields; send fewer fields"
        case let .tooLarge(size, limit):
            "the form is \(size) bytes, more than the limit of \(limit); send less data or upload files as multipart/form-data"
        case let .unreadableBody(reason):
            "the form body could not be read: \(reason)"
        }
    }

    /// A field name from the wire as messages quote it: control characters replaced, at most 80 characters.
    static func quoted(_ text: String) -> String {
        let clean = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        return clean.count > 80 ? clean.prefix(80) + "…" : clean
    }
}
