/// What a part's header section says about it: its field name, file name and media type.
public struct MultipartPartHead: Sendable, Equatable {
    /// One header field of a part, as sent.
    public struct Field: Sendable, Equatable {
        /// The field name as sent (compare case-insensitively).
        public var name: String
        /// The value without surrounding whitespace.
        public var value: String

        /// A header field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The part's position in the body, counting from 0.
    public var index: Int
    /// The form field name (`name` of Content-Disposition).
    public var name: String
    /// The file name: `filename*` (RFC 8187) when present, else `filename`; nil for plain fields.
    /// It is the sender's text, not a safe path: never use it to name a file unchecked.
    public var filename: String?
    /// The part's Content-Type; `text/plain` when it has none (RFC 7578 §4.4).
    public var contentType: String
    /// Every header field of the part, in order.
    public var fields: [Field]

    /// A part head; the parser makes these, tests may too.
    public init(index: Int, name: String, filename: String? = nil, contentType: String = "text/plain", fields: [Field] = []) {
        self.index = index
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.fields = fields
    }

    /// The value of the first header field called `name` (case-insensitive).
    public func field(_ name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }

    /// How errors name this part.
    var reference: MultipartError.Part { MultipartError.Part(number: index + 1, name: name) }
}
