import CCrypto

/// A certificate, its private key and the certificates that chain it to a root, ready to sign
/// CMS SignedData with libcrypto (as `openssl cms -sign -nodetach -binary` does).
///
/// Whatever form it was read from (PEM, DER, a `.p12`, an encrypted key), it is kept in one
/// normal form: the signing certificate first then the chain, as PEM, and the key unencrypted as
/// PKCS #8 PEM. That text is what callers store, and `init(certificates:privateKey:)` reads it back.
public struct CMSSigningIdentity: Sendable, Equatable {
    /// The signing certificate, then the chain certificates, as PEM.
    public let certificatePEM: String
    /// The private key, unencrypted PKCS #8 PEM. A secret: store it only where the key belongs.
    public let privateKeyPEM: String
    /// The signing certificate, DER, for reading its subject and validity.
    public let certificateDER: [UInt8]
    /// How many chain certificates come with it.
    public let chainCount: Int

    /// Reads certificates (PEM, one or more, or a single DER certificate) and a PEM private key,
    /// decrypted with `passphrase` when it is encrypted. `privateKey` nil reads the key from the
    /// certificate file (a combined PEM). The certificate the key belongs to signs; the others are
    /// sent along as its chain.
    public init(certificates: [UInt8], privateKey: [UInt8]? = nil, passphrase: String? = nil) throws(CMSSigningError) {
        try CryptoLibrary.require()
        let parsed = try Self.readCertificates(certificates)
        defer { parsed.forEach { bk_crypto_certificate_free($0) } }
        guard !parsed.isEmpty else { throw CMSSigningError.noCertificate }
        let key = try Self.readKey(privateKey ?? certificates, passphrase: passphrase)
        defer { bk_crypto_key_free(key) }
        guard let leaf = parsed.firstIndex(where: { bk_crypto_key_matches($0, key) == 1 }) else {
            _ = CryptoLibrary.takeError("")
            throw CMSSigningError.keyMatchesNoCertificate(certificates: parsed.count)
        }
        var ordered = parsed
        ordered.insert(ordered.remove(at: leaf), at: 0)
        self = try Self.normalised(certificates: ordered, key: key)
    }

    /// Reads a PKCS #12 (`.p12`, `.pfx`) file with its password, as Keychain Access and
    /// `openssl pkcs12 -export` write them (old files' RC2 and 3DES encryption included).
    public init(pkcs12: [UInt8], password: String) throws(CMSSigningError) {
        try CryptoLibrary.require()
        var attempt = 0
        while true {
            do {
                self = try Self.openPKCS12(pkcs12, password: password)
                return
            } catch let error where attempt == 0 {
                // OpenSSL 3 keeps the algorithms of older .p12 files in its legacy provider.
                guard case .unreadablePKCS12 = error, bk_crypto_load_legacy_provider() == 1 else { throw error }
                attempt += 1
            }
        }
    }

    private static func openPKCS12(_ bytes: [UInt8], password: String) throws(CMSSigningError) -> CMSSigningIdentity {
        let bio = try memoryBIO(bytes)
        defer { bk_crypto_bio_free(bio) }
        guard let container = bk_crypto_read_pkcs12(bio) else {
            throw CMSSigningError.unreadablePKCS12(CryptoLibrary.takeError("not a PKCS #12 file"))
        }
        defer { bk_crypto_pkcs12_free(container) }
        var key: OpaquePointer?
        var certificate: OpaquePointer?
        var chain: OpaquePointer?
        guard bk_crypto_parse_pkcs12(container, password, &key, &certificate, &chain) == 1 else {
            throw CMSSigningError.unreadablePKCS12(CryptoLibrary.takeError("wrong password or damaged file"))
        }
        var owned: [OpaquePointer] = []
        if let certificate { owned.append(certificate) }
        if let chain {
            for index in 0 ..< max(0, bk_crypto_stack_count(chain)) {
                if let extra = bk_crypto_stack_certificate(chain, Int32(index)) { owned.append(extra) }
            }
            bk_crypto_stack_free(chain)
        }
        defer {
            owned.forEach { bk_crypto_certificate_free($0) }
            if let key { bk_crypto_key_free(key) }
        }
        guard let key, certificate != nil else { throw CMSSigningError.incompletePKCS12 }
        return try normalised(certificates: owned, key: key)
    }

    /// Signs `content` as CMS SignedData with the content attached, in DER.
    public func sign(_ content: [UInt8]) throws(CMSSigningError) -> [UInt8] {
        try CryptoLibrary.require()
        return try signEnvelope(content) { signer, key, chain, input in bk_crypto_cms_sign(signer, key, chain, input) }
    }

    /// Reads the signing certificate, its chain and the key, makes an envelope over `content` with
    /// `make(signer, key, chain, input)`, and returns it as DER; every libcrypto object is freed.
    func signEnvelope(_ content: [UInt8],
                      make: (OpaquePointer, OpaquePointer, OpaquePointer, OpaquePointer) -> OpaquePointer?) throws(CMSSigningError) -> [UInt8] {
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
        guard let envelope = make(signer, key, chain, input) else {
            throw CMSSigningError.signingFailed(CryptoLibrary.takeError("CMS_sign failed"))
        }
        defer { bk_crypto_cms_free(envelope) }
        return try Self.written { output in bk_crypto_cms_write_der(output, envelope) == 1 }
    }

    // MARK: libcrypto plumbing

    /// A memory BIO holding a copy of `bytes`.
    static func memoryBIO(_ bytes: [UInt8]) throws(CMSSigningError) -> OpaquePointer {
        guard bytes.count < Int(Int32.max),
              let bio = bytes.withUnsafeBytes({ bk_crypto_bio_with($0.baseAddress, Int32($0.count)) }) else {
            throw CMSSigningError.signingFailed(CryptoLibrary.takeError("out of memory"))
        }
        return bio
    }

    /// Runs `write` on a fresh memory BIO and returns what it wrote.
    static func written(_ write: (OpaquePointer) -> Bool) throws(CMSSigningError) -> [UInt8] {
        guard let output = bk_crypto_bio_memory() else { throw CMSSigningError.signingFailed(CryptoLibrary.takeError("out of memory")) }
        defer { bk_crypto_bio_free(output) }
        guard write(output) else { throw CMSSigningError.signingFailed(CryptoLibrary.takeError("could not encode")) }
        var start: UnsafePointer<UInt8>?
        let length = bk_crypto_bio_contents(output, &start)
        guard let start, length > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: start, count: Int(length)))
    }

    /// Every PEM certificate in `bytes`, or the one DER certificate `bytes` is; empty when neither.
    static func readCertificates(_ bytes: [UInt8]) throws(CMSSigningError) -> [OpaquePointer] {
        var certificates: [OpaquePointer] = []
        if bytes.contains(UInt8(ascii: "-")) {
            let bio = try memoryBIO(bytes)
            defer { bk_crypto_bio_free(bio) }
            while let certificate = bk_crypto_read_pem_certificate(bio) { certificates.append(certificate) }
            // Reading stops at the end with a "no start line" error: not a failure.
            _ = CryptoLibrary.takeError("")
        }
        if certificates.isEmpty, bytes.first == 0x30 {
            let bio = try memoryBIO(bytes)
            defer { bk_crypto_bio_free(bio) }
            if let certificate = bk_crypto_read_der_certificate(bio) { certificates.append(certificate) }
            _ = CryptoLibrary.takeError("")
        }
        return certificates
    }

    static func readKey(_ bytes: [UInt8], passphrase: String?) throws(CMSSigningError) -> OpaquePointer {
        let bio = try memoryBIO(bytes)
        defer { bk_crypto_bio_free(bio) }
        guard let key = bk_crypto_read_pem_key(bio, passphrase) else {
            let reason = CryptoLibrary.takeError("no PEM private key found")
            let encrypted = bytes.count < (1 << 20) && String(decoding: bytes, as: UTF8.self).contains("ENCRYPTED")
            throw CMSSigningError.unreadableKey(encrypted && passphrase == nil ? "it is encrypted and no passphrase was given" : reason)
        }
        return key
    }

    /// The normal form: certificates as PEM (signer first), the key as unencrypted PKCS #8 PEM.
    static func normalised(certificates: [OpaquePointer], key: OpaquePointer) throws(CMSSigningError) -> CMSSigningIdentity {
        guard let signer = certificates.first else { throw CMSSigningError.noCertificate }
        var pem: [UInt8] = []
        for certificate in certificates {
            pem += try written { bk_crypto_write_pem_certificate($0, certificate) == 1 }
        }
        let keyPEM = try written { bk_crypto_write_pem_key($0, key) == 1 }
        let der = try written { bk_crypto_write_der_certificate($0, signer) > 0 }
        return CMSSigningIdentity(certificatePEM: String(decoding: pem, as: UTF8.self), privateKeyPEM: String(decoding: keyPEM, as: UTF8.self),
                                  certificateDER: der, chainCount: certificates.count - 1)
    }

    private init(certificatePEM: String, privateKeyPEM: String, certificateDER: [UInt8], chainCount: Int) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
        self.certificateDER = certificateDER
        self.chainCount = chainCount
    }
}
