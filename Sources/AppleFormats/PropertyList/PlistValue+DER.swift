extension PlistValue {
    /// Decodes Apple's DER encoding of a property list, used for DER entitlements
    /// (code signature slot 0xfade7172) and the DER-Encoded-Profile of provisioning profiles.
    ///
    /// Dictionaries are a SET or `[16]` of SEQUENCE { UTF8String key, value }; arrays are
    /// SEQUENCEs; Apple's entitlements wrap the top dictionary as
    /// `[APPLICATION 16] { INTEGER 1, dictionary }`, while some signers emit the bare SET.
    public init(der element: ASN1Element) throws(DERError) {
        let tag = element.tag
        switch (tag.tagClass, tag.number, tag.isConstructed) {
        case (.application, 16, true):
            _ = try element.child(0, "DER entitlements version").integer()
            self = try PlistValue(der: element.child(1, "DER entitlements dictionary"))
        case (.universal, 17, true), (.contextSpecific, 16, true):
            var entries: [String: PlistValue] = [:]
            for pair in element.children {
                try pair.expect(.sequence, "dictionary entry")
                guard pair.children.count == 2 else {
                    throw DERError.invalidValue(offset: pair.offset, "dictionary entry has \(pair.children.count) element\(pair.children.count == 1 ? "" : "s") instead of a key and a value")
                }
                let key = try pair.children[0].string()
                guard entries[key] == nil else {
                    throw DERError.invalidValue(offset: pair.offset, "key \"\(key)\" appears twice in one dictionary")
                }
                entries[key] = try PlistValue(der: pair.children[1])
            }
            self = .dictionary(entries)
        case (.universal, 16, true):
            var values: [PlistValue] = []
            for item in element.children { values.append(try PlistValue(der: item)) }
            self = .array(values)
        case (.universal, 1, false):
            self = .bool(try element.boolean())
        case (.universal, 2, false):
            self = .integer(try element.integer())
        case (.universal, 4, _):
            self = .data(try element.octetString())
        case (.universal, 23, false), (.universal, 24, false):
            self = .date(try element.time())
        case (.universal, 5, false):
            throw DERError.invalidValue(offset: element.offset, "NULL has no property-list equivalent")
        default:
            self = .string(try element.string())
        }
    }

    /// Parses DER bytes and decodes them; trailing padding after the element is ignored
    /// because code signature blobs may be padded.
    public init(derBytes: [UInt8]) throws(DERError) {
        try self.init(der: BERParser(bytes: derBytes).parsePrefix())
    }
}
