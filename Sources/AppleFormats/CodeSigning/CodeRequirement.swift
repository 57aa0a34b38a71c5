/// Writes code requirements in Apple's compiled form (the requirements blob, 0xfade0c01, holding
/// one requirement, 0xfade0c00), as codesign does for an app signed with an Apple-issued certificate.
///
/// Expression operators are big-endian 32-bit words; data is a length word followed by the bytes,
/// padded with zeros to a multiple of four.
public enum CodeRequirement {
    /// The requirements set magic.
    public static let setMagic: UInt32 = 0xfade_0c01
    /// One requirement's magic.
    public static let requirementMagic: UInt32 = 0xfade_0c00
    /// The designated requirement's type in the set.
    static let designatedType: UInt32 = 3
    // Operators (Security's requirement.h).
    static let opIdent: UInt32 = 2, opAnd: UInt32 = 6, opCertField: UInt32 = 11, opCertGeneric: UInt32 = 14
    static let opAppleGenericAnchor: UInt32 = 15
    static let matchExists: UInt32 = 0, matchEqual: UInt32 = 1
    /// 1.2.840.113635.100.6.2.1, the Apple WWDR intermediate's marker extension, DER-encoded.
    static let wwdrMarkerOID: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x63, 0x64, 0x06, 0x02, 0x01]

    /// The requirements blob codesign writes: `identifier "ID" and anchor apple generic and
    /// certificate leaf[subject.CN] = "CN" and certificate 1[field.1.2.840.113635.100.6.2.1] exists`.
    public static func designated(identifier: String, leafCommonName: String) -> [UInt8] {
        var expression: [UInt8] = []
        word(opAnd, &expression); word(opIdent, &expression); data(Array(identifier.utf8), &expression)
        word(opAnd, &expression); word(opAppleGenericAnchor, &expression)
        word(opAnd, &expression)
        word(opCertField, &expression); word(0, &expression); data(Array("subject.CN".utf8), &expression)
        word(matchEqual, &expression); data(Array(leafCommonName.utf8), &expression)
        word(opCertGeneric, &expression); word(1, &expression); data(wwdrMarkerOID, &expression); word(matchExists, &expression)

        var requirement: [UInt8] = []
        word(requirementMagic, &requirement); word(UInt32(12 + expression.count), &requirement); word(1, &requirement)
        requirement += expression
        var set: [UInt8] = []
        word(setMagic, &set); word(UInt32(20 + requirement.count), &set); word(1, &set)
        word(designatedType, &set); word(20, &set)
        return set + requirement
    }

    /// An empty requirements set (what ad hoc signatures carry).
    public static let empty: [UInt8] = [0xfa, 0xde, 0x0c, 0x01, 0, 0, 0, 12, 0, 0, 0, 0]

    static func word(_ value: UInt32, _ out: inout [UInt8]) {
        out += [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
    }

    static func data(_ bytes: [UInt8], _ out: inout [UInt8]) {
        word(UInt32(bytes.count), &out)
        out += bytes
        out += [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
    }
}
