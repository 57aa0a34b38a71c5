/// A property list inside a CMS SignedData envelope, the shape shared by `.mobileconfig` files
/// signed with `openssl cms -sign -nodetach` and the attribute replies devices send during
/// enrolment (provisioning profiles add their own recovery rules, see `ProvisioningProfile`).
///
/// Signatures are not verified, as for profiles: betactl reports who signed, and the device or
/// Apple verifies. A signer certificate that has expired is reported like any other.
public struct CMSSignedPlist: Sendable {
    /// The envelope: certificates, signer, whether BER indefinite lengths were used.
    public var envelope: CMSSignedData
    /// The encapsulated plist's bytes, as signed.
    public var plistBytes: [UInt8]
    /// The parsed plist.
    public var plist: PlistValue

    /// The eContentType every signed plist uses: id-data.
    public static let dataContentType = "1.2.840.113549.1.7.1"

    /// Reads a DER or BER ContentInfo whose encapsulated content is a plist.
    public init(bytes: [UInt8]) throws(CMSSignedPlistError) {
        guard let first = bytes.first else { throw CMSSignedPlistError.notSigned("the data is empty") }
        guard first == 0x30 else {
            throw CMSSignedPlistError.notSigned("it does not start with an ASN.1 SEQUENCE (first byte 0x\(String(first, radix: 16)))")
        }
        do {
            envelope = try CMSSignedData(bytes: bytes)
        } catch {
            throw CMSSignedPlistError.damagedEnvelope(error)
        }
        guard envelope.contentType == Self.dataContentType else {
            throw CMSSignedPlistError.wrongContentType(envelope.contentType)
        }
        guard let content = envelope.content else { throw CMSSignedPlistError.noContent }
        plistBytes = content
        do {
            plist = try PlistValue(parsing: content)
        } catch {
            throw CMSSignedPlistError.unreadablePlist(error)
        }
    }

    /// Whether `bytes` start like a CMS SignedData ContentInfo: a SEQUENCE whose first element is
    /// the signedData object identifier. Only the first few dozen bytes are looked at.
    public static func looksLikeSignedData(_ bytes: some Collection<UInt8>) -> Bool {
        let oid: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        let head = Array(bytes.prefix(24))
        guard head.first == 0x30, head.count > 2 + oid.count else { return false }
        // The OID follows the outer SEQUENCE's length, whose length octets take 1 to 5 bytes.
        for start in 2 ... 6 where start + oid.count <= head.count {
            if Array(head[start ..< start + oid.count]) == oid { return true }
        }
        return false
    }
}
