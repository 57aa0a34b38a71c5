import AppleFormats
import CryptoCMS

/// Checks a code signature's CMS blob with the system's libcrypto.
struct LibcryptoCodeSignatureCMS: CodeSignatureCMSVerifying {
    func verifyDetachedSignature(_ signature: [UInt8], over content: [UInt8]) throws -> [UInt8] {
        try CMSDetachedSignatureVerifier().verify(signature, content: content)
    }
}
