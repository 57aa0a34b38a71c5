#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A provisioning profile (`.mobileprovision`): what may be installed where, signed by Apple.
///
/// Name, UUID, team, creation and expiration are required; every other key is
/// optional because Apple has added keys over the years and old profiles lack them.
public struct ProvisioningProfile: Sendable, Hashable {
    /// The profile's display name.
    public var name: String
    /// The profile UUID, lowercased as Apple writes it.
    public var uuid: String
    /// Team identifiers; the first is the team.
    public var teamIdentifiers: [String]
    /// The team's display name.
    public var teamName: String?
    /// The App ID's display name (AppIDName).
    public var appIDName: String?
    /// ApplicationIdentifierPrefix values (usually the team id).
    public var applicationIdentifierPrefixes: [String]
    /// Platforms such as "iOS", "xrOS".
    public var platforms: [String]
    /// When Apple generated the profile.
    public var creationDate: Date
    /// After this instant iOS refuses to launch apps signed with it.
    public var expirationDate: Date
    /// ProvisionedDevices as written in the profile; nil when the key is absent.
    public var provisionedDevices: [String]?
    /// Whether ProvisionsAllDevices is set (enterprise).
    public var provisionsAllDevices: Bool
    /// The entitlements the profile grants, including wildcards such as `TEAMID.*`.
    public var entitlements: [String: PlistValue]
    /// The signing certificates the profile accepts.
    public var developerCertificates: [Certificate]
    /// ProfileDistributionType from the DER-Encoded-Profile, when present (ADHOC, LIMITED, STORE, IN_HOUSE).
    public var distributionType: String?
    /// IsXcodeManaged.
    public var isXcodeManaged: Bool?
    /// TimeToLive in days.
    public var timeToLive: Int?
    /// The profile format Version.
    public var version: Int?
    /// Whether the profile was signed with BER indefinite lengths (older or self-made tooling).
    public var usesBER: Bool
    /// The certificate that signed the CMS envelope (Apple's profile-signing certificate).
    public var signer: Certificate?
    /// The plain plist bytes inside the envelope.
    public var plist: [UInt8]

    /// The team identifier (first of TeamIdentifier).
    public var teamIdentifier: String { teamIdentifiers.first ?? "" }

    /// The application identifier entitlement, such as `ABCDE12345.com.example.app` or `ABCDE12345.*`.
    public var applicationIdentifier: String? {
        entitlements["application-identifier"]?.string ?? entitlements["com.apple.application-identifier"]?.string
    }

    /// The get-task-allow entitlement (debugger attach), false when absent.
    public var getTaskAllow: Bool {
        entitlements["get-task-allow"]?.bool ?? false
    }

    /// The profile's type, preferring Apple's explicit ProfileDistributionType.
    public var type: ProfileType {
        if let distributionType, let explicit = ProfileType(distributionType: distributionType) { return explicit }
        return ProfileType.infer(hasDeviceList: !(provisionedDevices ?? []).isEmpty,
                                 provisionsAllDevices: provisionsAllDevices, getTaskAllow: getTaskAllow)
    }

    /// Whether the profile has expired at `date`.
    public func isExpired(at date: Date) -> Bool {
        date >= expirationDate
    }

    /// Whether the profile's application identifier covers `bundleID`: an exact match
    /// after the team prefix, a `prefix.*` wildcard, or `*`.
    public func covers(bundleID: String) -> Bool {
        guard let identifier = applicationIdentifier else { return false }
        let prefixes = Set(applicationIdentifierPrefixes + teamIdentifiers)
        guard let dot = identifier.firstIndex(of: "."), prefixes.isEmpty || prefixes.contains(String(identifier[..<dot])) else {
            return false
        }
        let pattern = identifier[identifier.index(after: dot)...]
        if pattern == "*" { return true }
        if pattern.hasSuffix(".*") { return bundleID.hasPrefix(pattern.dropLast()) }
        return pattern == bundleID
    }

    /// The provisioned devices as normalised identifiers; entries that are not UDIDs are left out.
    public var provisionedDeviceIdentifiers: [DeviceIdentifier] {
        (provisionedDevices ?? []).compactMap { try? DeviceIdentifier($0) }
    }

    /// Whether the device with `udid` may install apps signed with this profile.
    public func includesDevice(_ udid: DeviceIdentifier) -> Bool {
        if provisionsAllDevices { return true }
        return provisionedDeviceIdentifiers.contains(udid)
    }
}
