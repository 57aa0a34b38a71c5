/// Makes the CMS blob of a code signature: a detached SignedData over the primary CodeDirectory
/// whose signed attributes list the CDHashes of every CodeDirectory. AppleFormats lays out the
/// signature; the cryptography lives outside it (BetaKit implements this with libcrypto).
public protocol CodeSignatureCMSSigning: Sendable {
    /// Signs `codeDirectory`, adding `cdHashesPlist` (an XML plist `{cdhashes: [data…]}`) as the
    /// signed attribute 1.2.840.113635.100.9.1. Returns DER.
    func signCodeDirectory(_ codeDirectory: [UInt8], cdHashesPlist: [UInt8]) throws -> [UInt8]
    /// The signing certificate's subject common name, for the designated requirement.
    var signerCommonName: String { get }
}
