/// Checks the CMS blob (0xfade0b01) of a code signature: a detached SignedData over the
/// CodeDirectory. AppleFormats parses and hashes; the cryptography lives outside it (BetaKit
/// implements this with libcrypto), so the verifier stays free of I/O and C libraries.
public protocol CodeSignatureCMSVerifying: Sendable {
    /// Verifies that `signature` (DER SignedData without content) signs `content`, and returns
    /// the DER certificate of the signer. Throws an error whose description says why not.
    func verifyDetachedSignature(_ signature: [UInt8], over content: [UInt8]) throws -> [UInt8]
}
