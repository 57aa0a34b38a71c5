import CCrypto

/// Verifies detached CMS SignedData (the content is not in the envelope, as in a code signature's
/// CMS blob over a CodeDirectory): every signature, and the signed message digest, must match the
/// content given. The signer's certificate is handed back for the caller to judge; no chain is built.
public struct CMSDetachedSignatureVerifier: Sendable {
    /// A verifier.
    public init() {}

    /// Verifies `envelope` (DER ContentInfo) over `content` and returns the DER certificate of its
    /// first signer.
    public func verify(_ envelope: [UInt8], content: [UInt8]) throws(CMSVerificationError) -> [UInt8] {
        if let reason = CryptoLibrary.loadError { throw CMSVerificationError.libraryUnavailable(reason) }
        let input = try CMSSignatureVerifier.bio(envelope)
        defer { bk_crypto_bio_free(input) }
        guard let cms = bk_crypto_cms_read_der(input) else {
            throw CMSVerificationError.unreadable(CryptoLibrary.takeError("not a CMS ContentInfo"))
        }
        defer { bk_crypto_cms_free(cms) }
        let data = try CMSSignatureVerifier.bio(content)
        defer { bk_crypto_bio_free(data) }
        guard bk_crypto_cms_verify_detached(cms, data) == 1 else {
            let reason = CryptoLibrary.takeError("the signature does not verify")
            throw reason.contains("no signers") ? CMSVerificationError.noSigner : CMSVerificationError.badSignature(reason)
        }
        guard let signers = bk_crypto_cms_signers(cms) else { throw CMSVerificationError.noSigner }
        defer { bk_crypto_stack_free(signers) }
        guard bk_crypto_stack_count(signers) > 0, let signer = bk_crypto_stack_certificate(signers, 0) else {
            throw CMSVerificationError.noSigner
        }
        return try CMSSignatureVerifier.der(signer)
    }
}
