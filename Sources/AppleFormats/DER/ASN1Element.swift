/// One parsed ASN.1 element (TLV) with its children when constructed.
///
/// Elements keep slices of the parsed byte array rather than offsets into a
/// borrowed buffer, so they are plain Sendable values that outlive the parse.
public struct ASN1Element: Sendable {
    /// The identifier.
    public var tag: ASN1Tag
    /// Offset of the identifier octet within the parsed input, for messages.
    public var offset: Int
    /// The whole encoding (identifier, length, content, and end-of-contents for BER).
    public var encoded: ArraySlice<UInt8>
    /// The content octets; for indefinite-length elements this excludes the end-of-contents marker.
    public var content: ArraySlice<UInt8>
    /// The nested elements of a constructed element; empty for primitives.
    public var children: [ASN1Element]
    /// Whether the element used BER's indefinite length form.
    public var isIndefiniteLength: Bool

    /// Parses exactly one element filling `bytes` (DER or BER).
    public init(parsing bytes: [UInt8], limits: BERParser.Limits = .init()) throws(DERError) {
        self = try BERParser(bytes: bytes, limits: limits).parseSingle()
    }

    init(tag: ASN1Tag, offset: Int, encoded: ArraySlice<UInt8>, content: ArraySlice<UInt8>,
         children: [ASN1Element], isIndefiniteLength: Bool) {
        self.tag = tag
        self.offset = offset
        self.encoded = encoded
        self.content = content
        self.children = children
        self.isIndefiniteLength = isIndefiniteLength
    }

    /// Child `index`, or an error naming what the structure required there.
    public func child(_ index: Int, _ what: String) throws(DERError) -> ASN1Element {
        guard tag.isConstructed, index >= 0, index < children.count else {
            throw DERError.unexpected(offset: offset, expected: "\(what) as element \(index + 1) of \(tag)",
                                      found: "only \(children.count) element\(children.count == 1 ? "" : "s")")
        }
        return children[index]
    }

    /// Throws unless the element's tag is `expected`.
    @discardableResult
    public func expect(_ expected: ASN1Tag, _ what: String) throws(DERError) -> ASN1Element {
        guard tag == expected else {
            throw DERError.unexpected(offset: offset, expected: "\(what) (\(expected))", found: "\(tag)")
        }
        return self
    }
}
