/// An X.500 name (certificate subject or issuer), attributes in encoded order.
public struct DistinguishedName: Hashable, Sendable, CustomStringConvertible {
    /// One attribute such as `CN=iPhone Distribution: Acme (ABCDE12345)`.
    public struct Attribute: Hashable, Sendable {
        /// The attribute type's dotted OID.
        public var oid: String
        /// The attribute's value as text.
        public var value: String

        /// Creates an attribute.
        public init(oid: String, value: String) {
            self.oid = oid
            self.value = value
        }

        /// The short name OpenSSL prints (CN, OU, O, C, UID, …), or the OID when unknown.
        public var shortName: String { DistinguishedName.shortNames[oid] ?? oid }
    }

    /// The attributes in the order they were encoded.
    public var attributes: [Attribute]
    /// The exact DER encoding, used to match a CMS signer's issuer.
    public var encoded: [UInt8]

    static let shortNames: [String: String] = [
        "2.5.4.3": "CN", "2.5.4.6": "C", "2.5.4.7": "L", "2.5.4.8": "ST", "2.5.4.10": "O", "2.5.4.11": "OU",
        "2.5.4.5": "serialNumber", "0.9.2342.19200300.100.1.1": "UID", "1.2.840.113549.1.9.1": "emailAddress",
    ]

    /// Creates a name from attributes (for tests and generated data).
    public init(attributes: [Attribute], encoded: [UInt8] = []) {
        self.attributes = attributes
        self.encoded = encoded
    }

    /// Parses a `Name` (SEQUENCE OF SET OF AttributeTypeAndValue).
    public init(element: ASN1Element) throws(DERError) {
        try element.expect(.sequence, "Name")
        var attributes: [Attribute] = []
        for rdn in element.children {
            try rdn.expect(.set, "RelativeDistinguishedName")
            for pair in rdn.children {
                try pair.expect(.sequence, "AttributeTypeAndValue")
                let oid = try pair.child(0, "attribute type").objectIdentifier()
                let valueElement = try pair.child(1, "attribute value")
                let value = (try? valueElement.string()) ?? valueElement.content.map { String($0, radix: 16) }.joined()
                attributes.append(Attribute(oid: oid, value: value))
            }
        }
        self.attributes = attributes
        self.encoded = Array(element.encoded)
    }

    /// The first value of the attribute with `oid`.
    public func value(for oid: String) -> String? {
        attributes.first { $0.oid == oid }?.value
    }

    /// The common name (CN), such as "Apple Distribution: Acme Inc (ABCDE12345)".
    public var commonName: String? { value(for: "2.5.4.3") }
    /// The organizational unit (OU); Apple puts the team id here.
    public var organizationalUnit: String? { value(for: "2.5.4.11") }
    /// The organization (O).
    public var organization: String? { value(for: "2.5.4.10") }
    /// The user id (UID); Apple puts the team id here too.
    public var userID: String? { value(for: "0.9.2342.19200300.100.1.1") }

    /// `CN=…, OU=…, O=…, C=…` in encoded order.
    public var description: String {
        attributes.map { "\($0.shortName)=\($0.value)" }.joined(separator: ", ")
    }

    /// Names compare by their attributes; the encoding is only a matching aid.
    public static func == (lhs: DistinguishedName, rhs: DistinguishedName) -> Bool {
        lhs.attributes == rhs.attributes
    }

    /// Hashes the attributes, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(attributes)
    }
}
