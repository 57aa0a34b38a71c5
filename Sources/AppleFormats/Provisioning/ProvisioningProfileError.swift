/// Why a `.mobileprovision` file was refused.
public enum ProvisioningProfileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What could still be read from a damaged file.
    public struct Recovery: Equatable, Sendable {
        /// The intact XML plist found inside the damaged envelope.
        public var plist: [UInt8]
        /// The profile name from that plist, if any.
        public var name: String?
        /// The profile UUID from that plist, if any.
        public var uuid: String?
    }

    /// The file is empty.
    case empty
    /// The file is not a CMS envelope at all.
    case notSigned(reason: String)
    /// The envelope claims more bytes than the file has.
    case truncated(fileSize: Int, detail: String, recovery: Recovery?)
    /// The envelope is damaged in some other way.
    case corrupt(detail: String, recovery: Recovery?)
    /// The envelope carries no content (a detached signature).
    case noContent
    /// The content is not a readable property list.
    case unreadablePlist(String)
    /// A required key is missing.
    case missingKey(String)
    /// A key has a value of the wrong kind.
    case wrongType(key: String, expected: String, found: String)

    static let fix = "download the profile again from the Apple Developer portal (Certificates, Identifiers & Profiles) or export it from Xcode"

    /// A sentence naming what is wrong, whether the plist survived, and what to do.
    public var description: String {
        switch self {
        case .empty:
            return "the profile file is empty; \(Self.fix)"
        case let .notSigned(reason):
            return "not a provisioning profile: \(reason); a .mobileprovision is a CMS-signed plist, so \(Self.fix)"
        case let .truncated(fileSize, detail, recovery):
            return "the profile is truncated (the file has only \(fileSize) bytes): \(detail). \(Self.recoveryText(recovery))"
        case let .corrupt(detail, recovery):
            return "the profile is corrupt: \(detail). \(Self.recoveryText(recovery))"
        case .noContent:
            return "the profile's signature carries no content (a detached signature); \(Self.fix)"
        case let .unreadablePlist(reason):
            return "the profile's content is not a readable property list: \(reason); \(Self.fix)"
        case let .missingKey(key):
            return "the profile has no \(key) key, which every provisioning profile has; \(Self.fix)"
        case let .wrongType(key, expected, found):
            return "the profile's \(key) is \(found) instead of \(expected); \(Self.fix)"
        }
    }

    private static func recoveryText(_ recovery: Recovery?) -> String {
        guard let recovery else {
            return "The plist inside cannot be recovered either; \(fix)"
        }
        let what = [recovery.name.map { "\"\($0)\"" }, recovery.uuid.map { "UUID \($0)" }].compactMap { $0 }.joined(separator: ", ")
        return "The plist inside is intact and can be recovered\(what.isEmpty ? "" : " (\(what))"), but without an intact signature betactl will not import it; \(fix)"
    }
}
