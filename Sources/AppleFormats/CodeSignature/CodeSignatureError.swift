/// Why a code signature (the LC_CODE_SIGNATURE blob) could not be read.
public enum CodeSignatureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The blob does not start with the SuperBlob magic 0xfade0cc0.
    case notSuperBlob(magic: UInt32)
    /// The SuperBlob or one of its blobs is inconsistent.
    case malformed(String)
    /// An entitlements blob holds bytes that are not a property list.
    case unreadableEntitlements(slot: String, reason: String)

    /// A sentence naming the problem and what to do.
    public var description: String {
        switch self {
        case let .notSuperBlob(magic):
            return "the code signature does not start with the embedded-signature magic 0xfade0cc0 (found 0x\(String(magic, radix: 16))); re-sign the app with codesign"
        case let .malformed(detail):
            return "the code signature is malformed: \(detail); re-sign the app with codesign"
        case let .unreadableEntitlements(slot, reason):
            return "the \(slot) entitlements in the code signature cannot be read: \(reason); re-sign the app with codesign"
        }
    }
}
