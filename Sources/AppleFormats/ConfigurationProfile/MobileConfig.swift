/// A `.mobileconfig` file as found on disk or served: a configuration profile, either a bare
/// plist or signed (CMS SignedData, DER or BER, as `openssl cms -sign -nodetach` writes it).
public struct MobileConfig: Sendable {
    /// The profile inside.
    public var profile: ConfigurationProfile
    /// Whether the file was signed.
    public var isSigned: Bool
    /// The certificate that signed it, when signed and named by the envelope.
    public var signer: Certificate?
    /// Every certificate carried in the envelope.
    public var certificates: [Certificate]
    /// Whether the envelope used BER indefinite lengths.
    public var usesIndefiniteLengths: Bool

    /// Reads a signed or unsigned `.mobileconfig`.
    public init(bytes: [UInt8]) throws(ConfigurationProfileError) {
        guard bytes.count <= ConfigurationProfile.maxSize else {
            throw ConfigurationProfileError.tooLarge(size: bytes.count, limit: ConfigurationProfile.maxSize)
        }
        if bytes.first == 0x30 {
            let signed: CMSSignedPlist
            do { signed = try CMSSignedPlist(bytes: bytes) } catch { throw ConfigurationProfileError.envelope(error) }
            profile = try ConfigurationProfile(plist: signed.plist)
            isSigned = true
            signer = signed.envelope.signer
            certificates = signed.envelope.certificates
            usesIndefiniteLengths = signed.envelope.usesIndefiniteLengths
        } else {
            profile = try ConfigurationProfile(plistBytes: bytes)
            isSigned = false
            signer = nil
            certificates = []
            usesIndefiniteLengths = false
        }
    }
}
