#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The parts of an X.509 certificate betactl reports: who, serial, validity and fingerprint.
///
/// Signatures are not verified: betactl checks profiles for consistency with a
/// build, and iOS itself verifies the chain on install.
public struct Certificate: Hashable, Sendable {
    /// The subject name.
    public var subject: DistinguishedName
    /// The issuer name.
    public var issuer: DistinguishedName
    /// The serial number's bytes, big-endian two's complement as encoded.
    public var serialNumber: [UInt8]
    /// Start of validity.
    public var notBefore: Date
    /// End of validity.
    public var notAfter: Date
    /// The subject key identifier extension, when present.
    public var subjectKeyIdentifier: [UInt8]?
    /// SHA-1 over the whole DER encoding, as Keychain Access and `security` show it.
    public var sha1Fingerprint: HashDigest
    /// SHA-256 over the whole DER encoding.
    public var sha256Fingerprint: HashDigest

    /// The serial number as uppercase hex without leading zero bytes.
    public var serialNumberHex: String {
        var bytes = serialNumber[...]
        while bytes.count > 1, bytes.first == 0 { bytes = bytes.dropFirst() }
        return bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
    }

    /// Whether `date` lies within the validity period.
    public func isValid(at date: Date) -> Bool {
        date >= notBefore && date <= notAfter
    }

    /// Parses a DER certificate.
    public init(der: [UInt8]) throws(DERError) {
        try self.init(element: ASN1Element(parsing: der))
    }

    /// Reads a parsed `Certificate` element.
    public init(element: ASN1Element) throws(DERError) {
        try element.expect(.sequence, "Certificate")
        let tbs = try element.child(0, "TBSCertificate").expect(.sequence, "TBSCertificate")
        var index = 0
        if let first = tbs.children.first, first.tag == .context(0) { index = 1 }  // explicit version
        serialNumber = try tbs.child(index, "serialNumber").integerBytes()
        issuer = try DistinguishedName(element: tbs.child(index + 2, "issuer"))
        let validity = try tbs.child(index + 3, "validity").expect(.sequence, "Validity")
        notBefore = try validity.child(0, "notBefore").time()
        notAfter = try validity.child(1, "notAfter").time()
        subject = try DistinguishedName(element: tbs.child(index + 4, "subject"))
        subjectKeyIdentifier = nil
        if let extensions = tbs.children.first(where: { $0.tag == .context(3) })?.children.first {
            for item in extensions.children where item.tag == .sequence {
                guard let oid = try? item.child(0, "extnID").objectIdentifier(), oid == "2.5.29.14",
                      let wrapped = item.children.last, let inner = try? ASN1Element(parsing: wrapped.octetString()),
                      let identifier = try? inner.octetString() else { continue }
                subjectKeyIdentifier = identifier
            }
        }
        let encoded = Array(element.encoded)
        sha1Fingerprint = SHA1.hash(encoded)
        sha256Fingerprint = SHA256.hash(encoded)
    }
}
