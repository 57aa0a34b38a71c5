/// What verified CMS SignedData holds: the content that was signed, and the chain each signer's
/// certificate was verified through.
public struct CMSVerifiedContent: Sendable, Equatable {
    /// The signed content, as signed.
    public var content: [UInt8]
    /// One chain per signer, each as DER certificates from the signer's own to the trusted one.
    public var signerChains: [[[UInt8]]]

    /// Creates a result (the verifier makes these).
    public init(content: [UInt8], signerChains: [[[UInt8]]]) {
        self.content = content
        self.signerChains = signerChains
    }
}
