/// An ASN.1 identifier: class, constructed bit and tag number.
public struct ASN1Tag: Hashable, Sendable, CustomStringConvertible {
    /// The two class bits of an identifier octet.
    public enum TagClass: UInt8, Sendable {
        /// Types defined by X.680 (SEQUENCE, INTEGER, …).
        case universal = 0
        /// Application-wide types, such as Apple's DER entitlements wrapper.
        case application = 1
        /// Context-specific tags such as `[0]`.
        case contextSpecific = 2
        /// Private-use tags.
        case privateUse = 3
    }

    /// The tag's class.
    public var tagClass: TagClass
    /// Whether the element holds other elements rather than bytes.
    public var isConstructed: Bool
    /// The tag number within its class.
    public var number: UInt32

    /// Creates a tag.
    public init(_ tagClass: TagClass, number: UInt32, constructed: Bool) {
        self.tagClass = tagClass
        self.number = number
        self.isConstructed = constructed
    }

    /// BOOLEAN.
    public static let boolean = ASN1Tag(.universal, number: 1, constructed: false)
    /// INTEGER.
    public static let integer = ASN1Tag(.universal, number: 2, constructed: false)
    /// BIT STRING.
    public static let bitString = ASN1Tag(.universal, number: 3, constructed: false)
    /// OCTET STRING in its primitive form.
    public static let octetString = ASN1Tag(.universal, number: 4, constructed: false)
    /// NULL.
    public static let null = ASN1Tag(.universal, number: 5, constructed: false)
    /// OBJECT IDENTIFIER.
    public static let objectIdentifier = ASN1Tag(.universal, number: 6, constructed: false)
    /// UTF8String.
    public static let utf8String = ASN1Tag(.universal, number: 12, constructed: false)
    /// SEQUENCE / SEQUENCE OF.
    public static let sequence = ASN1Tag(.universal, number: 16, constructed: true)
    /// SET / SET OF.
    public static let set = ASN1Tag(.universal, number: 17, constructed: true)
    /// UTCTime.
    public static let utcTime = ASN1Tag(.universal, number: 23, constructed: false)
    /// GeneralizedTime.
    public static let generalizedTime = ASN1Tag(.universal, number: 24, constructed: false)

    /// A constructed context-specific tag such as `[0]` in its EXPLICIT form.
    public static func context(_ number: UInt32, constructed: Bool = true) -> ASN1Tag {
        ASN1Tag(.contextSpecific, number: number, constructed: constructed)
    }

    /// The universal types' names, for messages.
    static let universalNames: [UInt32: String] = [
        1: "BOOLEAN", 2: "INTEGER", 3: "BIT STRING", 4: "OCTET STRING", 5: "NULL", 6: "OBJECT IDENTIFIER",
        12: "UTF8String", 16: "SEQUENCE", 17: "SET", 19: "PrintableString", 20: "T61String", 22: "IA5String",
        23: "UTCTime", 24: "GeneralizedTime", 28: "UniversalString", 30: "BMPString",
    ]

    /// A readable name: `SEQUENCE`, `[0]`, `[APPLICATION 16]`.
    public var description: String {
        switch tagClass {
        case .universal: return Self.universalNames[number] ?? "UNIVERSAL \(number)"
        case .application: return "[APPLICATION \(number)]"
        case .contextSpecific: return "[\(number)]"
        case .privateUse: return "[PRIVATE \(number)]"
        }
    }
}
