/// A CMS (PKCS #7) SignedData envelope: the signed content and the certificates.
///
/// Provisioning profiles and DER-Encoded-Profile values are both SignedData
/// around a payload; betactl needs the payload and the signer's identity.
public struct CMSSignedData: Sendable {
    /// The eContentType OID of the encapsulated content (1.2.840.113549.1.7.1 for data).
    public var contentType: String
    /// The encapsulated content; nil for detached signatures.
    public var content: [UInt8]?
    /// Every certificate carried in the envelope, in order.
    public var certificates: [Certificate]
    /// The certificate that signed the content, when the signer info names one of the carried certificates.
    public var signer: Certificate?
    /// Whether any part of the envelope used BER's indefinite lengths.
    public var usesIndefiniteLengths: Bool

    static let signedDataOID = "1.2.840.113549.1.7.2"

    /// Parses a whole ContentInfo holding SignedData, in DER or BER.
    public init(bytes: [UInt8]) throws(DERError) {
        let contentInfo = try ASN1Element(parsing: bytes)
        try self.init(contentInfo: contentInfo)
    }

    /// Reads an already parsed ContentInfo.
    public init(contentInfo: ASN1Element) throws(DERError) {
        try contentInfo.expect(.sequence, "CMS ContentInfo")
        let type = try contentInfo.child(0, "contentType").objectIdentifier()
        guard type == Self.signedDataOID else {
            throw DERError.unexpected(offset: contentInfo.offset, expected: "CMS SignedData (\(Self.signedDataOID))", found: "content type \(type)")
        }
        let wrapper = try contentInfo.child(1, "[0] content").expect(.context(0), "[0] content")
        let signedData = try wrapper.child(0, "SignedData").expect(.sequence, "SignedData")
        _ = try signedData.child(0, "version").integer()
        let encapsulated = try signedData.child(2, "encapContentInfo").expect(.sequence, "EncapsulatedContentInfo")
        contentType = try encapsulated.child(0, "eContentType").objectIdentifier()
        if encapsulated.children.count > 1 {
            let explicit = try encapsulated.child(1, "[0] eContent").expect(.context(0), "[0] eContent")
            var joined: [UInt8] = []
            for piece in explicit.children { joined += try piece.octetString() }
            content = joined
        } else {
            content = nil
        }
        var certificates: [Certificate] = []
        var signerInfos: ASN1Element?
        for element in signedData.children.dropFirst(3) {
            if element.tag == .context(0) {
                for certificate in element.children where certificate.tag == .sequence {
                    certificates.append(try Certificate(element: certificate))
                }
            } else if element.tag == .set {
                signerInfos = element
            }
        }
        self.certificates = certificates
        self.signer = signerInfos.flatMap { Self.findSigner($0, in: certificates) }
        usesIndefiniteLengths = Self.anyIndefinite(contentInfo)
    }

    private static func findSigner(_ infos: ASN1Element, in certificates: [Certificate]) -> Certificate? {
        guard let info = infos.children.first, info.children.count > 1 else { return nil }
        let identifier = info.children[1]
        if identifier.tag == .sequence,
           let issuer = try? DistinguishedName(element: identifier.child(0, "issuer")),
           let serial = try? identifier.child(1, "serialNumber").integerBytes() {
            return certificates.first { $0.serialNumber == serial && $0.issuer == issuer }
        }
        if identifier.tag == .context(0, constructed: false) {
            let keyID = Array(identifier.content)
            return certificates.first { $0.subjectKeyIdentifier == keyID }
        }
        return nil
    }

    private static func anyIndefinite(_ element: ASN1Element) -> Bool {
        element.isIndefiniteLength || element.children.contains { anyIndefinite($0) }
    }
}
