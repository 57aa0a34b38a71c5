/// Reads the signed attributes Apple's codesign adds to a code signature's CMS blob: the CDHashes
/// of every CodeDirectory, so the one signature also covers the alternate CodeDirectories.
///
/// These attributes are covered by the CMS signature, so once that verifies, their values can be trusted.
public enum CodeSignatureCMSAttributes {
    /// 1.2.840.113635.100.9.1: a plist `{cdhashes: [data…]}` of 20-byte CDHashes.
    public static let cdHashesPlistOID = "1.2.840.113635.100.9.1"
    /// 1.2.840.113635.100.9.2: a SET of SEQUENCE { digest algorithm OID, OCTET STRING full hash }.
    public static let cdHashesOID = "1.2.840.113635.100.9.2"

    /// Every CDHash listed by either attribute of the first signer, or nil when there is none or the
    /// envelope cannot be read.
    public static func cdHashes(in envelope: [UInt8]) -> [[UInt8]]? {
        guard let attributes = try? signedAttributes(envelope) else { return nil }
        var hashes: [[UInt8]] = []
        var found = false
        for attribute in attributes.children where attribute.children.count == 2 {
            guard let oid = try? attribute.children[0].objectIdentifier() else { continue }
            let values = attribute.children[1].children
            if oid == cdHashesPlistOID, let octets = try? values.first?.octetString(),
               let plist = try? PlistValue(parsing: octets), let list = plist.dictionary?["cdhashes"]?.array {
                found = true
                hashes += list.compactMap { $0.data }
            } else if oid == cdHashesOID {
                found = true
                for pair in values where pair.children.count == 2 {
                    if let hash = try? pair.children[1].octetString() { hashes.append(hash) }
                }
            }
        }
        return found ? hashes : nil
    }

    /// The `[0] signedAttrs` of the first SignerInfo.
    static func signedAttributes(_ envelope: [UInt8]) throws -> ASN1Element {
        let contentInfo = try ASN1Element(parsing: envelope)
        let signedData = try contentInfo.child(1, "[0] content").child(0, "SignedData")
        guard let infos = signedData.children.last(where: { $0.tag == .set }), let info = infos.children.first else {
            throw DERError.unexpected(offset: signedData.offset, expected: "SignerInfos", found: "none")
        }
        guard let attributes = info.children.first(where: { $0.tag == .context(0) }) else {
            throw DERError.unexpected(offset: info.offset, expected: "signed attributes", found: "none")
        }
        return attributes
    }
}
