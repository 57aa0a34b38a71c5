import CCrypto

extension CMSSigningIdentity {
    /// Detached CMS SignedData over `content` (the content is not in the envelope), with one more
    /// signed attribute, `oid` = OCTET STRING `value`, as codesign's CMS blob carries the CDHashes
    /// plist (1.2.840.113635.100.9.1). Returns DER.
    public func signDetached(_ content: [UInt8], attribute oid: String, value: [UInt8]) throws(CMSSigningError) -> [UInt8] {
        try CryptoLibrary.require()
        if let reason = bk_crypto_codesign_load_error() { throw CMSSigningError.libraryUnavailable(String(cString: reason)) }
        return try signEnvelope(content) { signer, key, chain, input in
            value.withUnsafeBytes { raw in
                bk_crypto_cms_sign_detached_with_attribute(signer, key, chain, input, oid, raw.baseAddress, Int32(raw.count))
            }
        }
    }
}
