import AppleFormats
import CryptoCMS

/// Makes a code signature's CMS blob with the system's libcrypto and a code-signing identity.
public struct LibcryptoCodeSigner: CodeSignatureCMSSigning {
    /// The distribution certificate (then its chain) and key.
    public let identity: CMSSigningIdentity
    /// The certificate's subject common name.
    public let signerCommonName: String

    /// A signer for `identity`; its certificate must have a common name.
    public init(identity: CMSSigningIdentity) throws(CodeSigningError) {
        self.identity = identity
        guard let certificate = try? Certificate(der: identity.certificateDER), let name = certificate.subject.commonName else {
            throw CodeSigningError.cmsFailed(path: "the code-signing identity", reason: "its certificate has no subject common name")
        }
        signerCommonName = name
    }

    /// Signs `codeDirectory` with the identity, adding the CDHashes plist as a signed attribute.
    public func signCodeDirectory(_ codeDirectory: [UInt8], cdHashesPlist: [UInt8]) throws -> [UInt8] {
        do {
            return try identity.signDetached(codeDirectory, attribute: CodeSignatureCMSAttributes.cdHashesPlistOID, value: cdHashesPlist)
        } catch {
            throw SigningIdentityError.cannotSign(error.description, command: "code-identity")
        }
    }
}
