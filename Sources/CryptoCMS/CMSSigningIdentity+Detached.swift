import CCrypto

extension CMSSigningIdentity {
    /// Detached CMS SignedData over `content` (the content is not in the envelope), with one more
    /// signed attribute, `oid` = OCTET STRING `value`, as codesign's CMS blob carries the CDHashes
    /// plist (1.2.840.113635.100.9.1). Returns DER.
    public func signDetached(_ content: [UInt8], attribute oid: String, value: [UInt8]) throws(CMSSigningError) -> [UInt8] {
        try CryptoLibrary.require()
        if let reason = bk_crypto_codesign_load_error() { throw CMSSigningError.libraryUnavailable(String(cString: reason)) }
        let certificates = try Self.readCertificates(Array(certificatePEM.utf8))
        defer { certificates.forEach { bk_crypto_certificate_free($0) } }
        guard let signer = certificates.first else { throw CMSSigningError.noCertificate }
        let key = try Self.readKey(Array(privateKeyPEM.utf8), passphrase: nil)
        defer { bk_crypto_key_free(key) }
        guard let chain = bk_crypto_stack_new() else { throw CMSSigningError.signingFailed(CryptoLibrary.takeError("out of memory")) }
        defer { bk_crypto_stack_free(chain) }
        for extra in certificates.dropFirst() where bk_crypto_stack_push(chain, extra) <= 0 {
            throw CMSSigningError.signingFailed(CryptoLibrary.takeError("out of memory"))
        }
        let input = try Self.memoryBIO(content)
        defer { bk_crypto_bio_free(input) }
        let made = value.withUnsafeBytes { raw in
            bk_crypto_cms_sign_detached_with_attribute(signer, key, chain, input, oid, raw.baseAddress, Int32(raw.count))
        }
        guard let envelope = made else { throw CMSSigningError.signingFailed(CryptoLibrary.takeError("CMS_sign failed")) }
        defer { bk_crypto_cms_free(envelope) }
        return try Self.written { output in bk_crypto_cms_write_der(output, envelope) == 1 }
    }
}
