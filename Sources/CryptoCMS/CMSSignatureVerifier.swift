import CCrypto

/// Verifies CMS SignedData with its content attached (as `openssl cms -verify -binary` does): every
/// signature must match the content, and every signer's certificate must chain to one of the
/// trusted certificates given. The chain found for each signer is handed back, so a caller can
/// pin more than the anchor (which intermediates, by fingerprint).
///
/// Validity dates are never checked, anywhere in the chain: some issuers (long-lived device CAs)
/// keep signing under certificates that expired years ago, and a verdict that changes with the
/// clock helps nobody. Purposes and key usages are not judged either; callers pin the chain.
public struct CMSSignatureVerifier: Sendable {
    /// The trusted certificates (roots), PEM.
    public let trustedPEM: String
    /// Certificates offered as intermediates besides those the envelope carries, PEM.
    public let intermediatesPEM: String

    /// A verifier trusting the PEM certificates in `trusted`, with `intermediates` (PEM) available
    /// to build chains when an envelope does not carry them.
    public init(trusted: String, intermediates: String = "") {
        trustedPEM = trusted
        intermediatesPEM = intermediates
    }

    /// Verifies `envelope` (DER or BER ContentInfo) and returns its content and each signer's chain.
    public func verify(_ envelope: [UInt8]) throws(CMSVerificationError) -> CMSVerifiedContent {
        if let reason = CryptoLibrary.loadError { throw CMSVerificationError.libraryUnavailable(reason) }
        let anchors = try Self.certificates(trustedPEM)
        defer { anchors.forEach { bk_crypto_certificate_free($0) } }
        guard !anchors.isEmpty else { throw CMSVerificationError.unreadableAnchor }
        let extras = try Self.certificates(intermediatesPEM)
        defer { extras.forEach { bk_crypto_certificate_free($0) } }

        let input = try Self.bio(envelope)
        defer { bk_crypto_bio_free(input) }
        guard let cms = bk_crypto_cms_read_der(input) else {
            throw CMSVerificationError.unreadable(CryptoLibrary.takeError("not a CMS ContentInfo"))
        }
        defer { bk_crypto_cms_free(cms) }
        guard let output = bk_crypto_bio_memory() else { throw CMSVerificationError.unreadable("out of memory") }
        defer { bk_crypto_bio_free(output) }
        guard bk_crypto_cms_verify_signatures(cms, output) == 1 else {
            let reason = CryptoLibrary.takeError("the signature does not verify")
            throw reason.contains("no signers") ? CMSVerificationError.noSigner : CMSVerificationError.badSignature(reason)
        }
        var start: UnsafePointer<UInt8>?
        let length = bk_crypto_bio_contents(output, &start)
        let content = start.map { Array(UnsafeBufferPointer(start: $0, count: max(0, Int(length)))) } ?? []

        guard let signers = bk_crypto_cms_signers(cms) else { throw CMSVerificationError.noSigner }
        defer { bk_crypto_stack_free(signers) }
        let signerCount = Int(bk_crypto_stack_count(signers))
        guard signerCount > 0 else { throw CMSVerificationError.noSigner }

        guard let store = bk_crypto_store_new_ignoring_dates() else { throw CMSVerificationError.unreadable("out of memory") }
        defer { bk_crypto_store_free(store) }
        for anchor in anchors where bk_crypto_store_add(store, anchor) != 1 {
            throw CMSVerificationError.unreadable(CryptoLibrary.takeError("the trusted certificates could not be stored"))
        }
        // Candidate intermediates: the envelope's certificates, then the caller's.
        guard let untrusted = bk_crypto_stack_new() else { throw CMSVerificationError.unreadable("out of memory") }
        var carried: [OpaquePointer] = []
        if let inEnvelope = bk_crypto_cms_certificates(cms) {
            for index in 0 ..< max(0, Int(bk_crypto_stack_count(inEnvelope))) {
                if let certificate = bk_crypto_stack_certificate(inEnvelope, Int32(index)) { carried.append(certificate) }
            }
            bk_crypto_stack_free(inEnvelope)
        }
        defer {
            bk_crypto_stack_free(untrusted)
            carried.forEach { bk_crypto_certificate_free($0) }
        }
        for certificate in carried + extras where bk_crypto_stack_push(untrusted, certificate) <= 0 {
            throw CMSVerificationError.unreadable("out of memory")
        }

        var chains: [[[UInt8]]] = []
        for index in 0 ..< signerCount {
            guard let signer = bk_crypto_stack_certificate(signers, Int32(index)) else { throw CMSVerificationError.noSigner }
            var chain: OpaquePointer?
            var reason: UnsafePointer<CChar>?
            guard bk_crypto_verify_chain(store, signer, untrusted, &chain, &reason) == 1, let chain else {
                _ = CryptoLibrary.takeError("")
                let subject = (try? Self.der(signer)).flatMap(Self.commonName) ?? "certificate"
                throw CMSVerificationError.untrustedSigner(subject: subject, reason: reason.map { String(cString: $0) } ?? "unknown")
            }
            var members: [OpaquePointer] = []
            for position in 0 ..< max(0, Int(bk_crypto_stack_count(chain))) {
                if let member = bk_crypto_stack_certificate(chain, Int32(position)) { members.append(member) }
            }
            bk_crypto_stack_free(chain)
            defer { members.forEach { bk_crypto_certificate_free($0) } }
            var ders: [[UInt8]] = []
            for member in members { ders.append(try Self.der(member)) }
            chains.append(ders)
        }
        return CMSVerifiedContent(content: content, signerChains: chains)
    }

    /// The DER of every certificate in `pem`, in order (empty when there is none).
    public static func derCertificates(pem: String) throws(CMSVerificationError) -> [[UInt8]] {
        if let reason = CryptoLibrary.loadError { throw CMSVerificationError.libraryUnavailable(reason) }
        let parsed = try certificates(pem)
        defer { parsed.forEach { bk_crypto_certificate_free($0) } }
        var ders: [[UInt8]] = []
        for certificate in parsed { ders.append(try der(certificate)) }
        return ders
    }

    // MARK: libcrypto plumbing

    static func certificates(_ pem: String) throws(CMSVerificationError) -> [OpaquePointer] {
        guard !pem.isEmpty else { return [] }
        do { return try CMSSigningIdentity.readCertificates(Array(pem.utf8)) } catch { throw CMSVerificationError.unreadableAnchor }
    }

    static func bio(_ bytes: [UInt8]) throws(CMSVerificationError) -> OpaquePointer {
        do { return try CMSSigningIdentity.memoryBIO(bytes) } catch { throw CMSVerificationError.unreadable("out of memory") }
    }

    static func der(_ certificate: OpaquePointer) throws(CMSVerificationError) -> [UInt8] {
        do { return try CMSSigningIdentity.written { bk_crypto_write_der_certificate($0, certificate) > 0 } } catch {
            throw CMSVerificationError.unreadable("a certificate could not be encoded")
        }
    }

    /// A short name for messages: the DER's last printable run after the commonName OID, or nil.
    static func commonName(_ der: [UInt8]) -> String? {
        // 2.5.4.3 (commonName) is 06 03 55 04 03; the value follows as a string with a one-byte length.
        let oid: [UInt8] = [0x06, 0x03, 0x55, 0x04, 0x03]
        var found: String?
        var index = 0
        while index + oid.count + 2 <= der.count {
            if Array(der[index ..< index + oid.count]) == oid {
                let length = Int(der[index + oid.count + 1])
                let start = index + oid.count + 2
                if length < 0x80, start + length <= der.count {
                    let text = der[start ..< start + length]
                    if text.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { found = "\"" + String(decoding: text, as: UTF8.self) + "\"" }
                }
            }
            index += 1
        }
        return found
    }
}
