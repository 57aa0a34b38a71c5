#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// A certificate as `inspect` shows it.
public struct CertificateSummary: Encodable, Sendable, Equatable {
    /// The subject, `CN=…, OU=…` in encoded order.
    public var subject: String
    /// The issuer, likewise.
    public var issuer: String
    /// The common name, when there is one.
    public var commonName: String?
    /// The serial number in hex.
    public var serial: String
    /// The end of validity, ISO 8601.
    public var expires: String
    /// Whether it had expired at the time of inspection (reported, never a refusal).
    public var expired: Bool
    /// The SHA-1 fingerprint in hex, as Keychain Access shows it.
    public var sha1: String

    /// Summarises `certificate` as of `now`.
    public init(_ certificate: Certificate, now: Date) {
        subject = certificate.subject.description
        issuer = certificate.issuer.description
        commonName = certificate.subject.commonName
        serial = certificate.serialNumberHex
        expires = Timestamp.string(certificate.notAfter)
        expired = now > certificate.notAfter
        sha1 = certificate.sha1Fingerprint.hex
    }
}

/// The `provisioning-profile` kind.
public struct ProfileSummary: Encodable, Sendable, Equatable {
    /// `ad-hoc`, `development`, `app-store` or `enterprise`.
    public var type: String
    /// The profile's name.
    public var name: String
    /// The profile's UUID.
    public var uuid: String
    /// The application identifier entitlement, such as `ABCDE12345.com.example.app`.
    public var appId: String?
    /// The App ID's name.
    public var appIdName: String?
    /// The team identifier.
    public var team: String
    /// The team's name.
    public var teamName: String?
    /// When Apple created it.
    public var created: String
    /// When it expires.
    public var expires: String
    /// Whether it had expired at the time of inspection.
    public var expired: Bool
    /// How many devices it lists.
    public var devices: Int
    /// Whether it covers every device (enterprise).
    public var provisionsAllDevices: Bool
    /// Platforms such as iOS.
    public var platforms: [String]
    /// The developer certificates it accepts.
    public var certificates: [CertificateSummary]
    /// The entitlements it grants.
    public var entitlements: [String: PlistJSON]
    /// Whether the envelope was BER with indefinite lengths.
    public var usesBER: Bool

    /// Summarises `profile` as of `now`.
    public init(_ profile: ProvisioningProfile, now: Date) {
        type = profile.type.rawValue
        name = profile.name
        uuid = profile.uuid
        appId = profile.applicationIdentifier
        appIdName = profile.appIDName
        team = profile.teamIdentifier
        teamName = profile.teamName
        created = Timestamp.string(profile.creationDate)
        expires = Timestamp.string(profile.expirationDate)
        expired = profile.isExpired(at: now)
        devices = profile.provisionedDevices?.count ?? 0
        provisionsAllDevices = profile.provisionsAllDevices
        platforms = profile.platforms
        certificates = profile.developerCertificates.map { CertificateSummary($0, now: now) }
        entitlements = PlistJSON.dictionary(profile.entitlements)
        usesBER = profile.usesBER
    }
}

/// The `mobileconfig` kind.
public struct MobileConfigSummary: Encodable, Sendable, Equatable {
    /// The top-level `PayloadType`.
    public var payloadType: String
    /// The payload types inside (or `Profile Service`).
    public var payloadTypes: [String]
    /// `PayloadIdentifier`.
    public var identifier: String
    /// `PayloadUUID`.
    public var uuid: String
    /// `PayloadDisplayName`.
    public var displayName: String?
    /// `PayloadOrganization`.
    public var organization: String?
    /// Whether the file is signed.
    public var signed: Bool
    /// The signer, when signed.
    public var signer: CertificateSummary?
    /// Whether the envelope was BER with indefinite lengths.
    public var usesBER: Bool
    /// A Profile Service payload's URL.
    public var url: String?
    /// A Profile Service payload's device attributes.
    public var deviceAttributes: [String]?
    /// Whether a Profile Service payload carries a challenge.
    public var hasChallenge: Bool?

    /// Summarises `file` as of `now`.
    public init(_ file: MobileConfig, now: Date) {
        let profile = file.profile
        payloadType = profile.payloadType
        payloadTypes = profile.payloadTypes
        identifier = profile.identifier
        uuid = profile.uuid
        displayName = profile.displayName
        organization = profile.organization
        signed = file.isSigned
        signer = file.signer.map { CertificateSummary($0, now: now) }
        usesBER = file.usesIndefiniteLengths
        url = profile.profileService?.url
        deviceAttributes = profile.profileService?.deviceAttributes
        hasChallenge = profile.profileService.map { $0.challenge != nil }
    }
}

/// The `device-enrollment-reply` kind.
public struct EnrollmentReplySummary: Encodable, Sendable, Equatable {
    /// The UDID, normalised.
    public var udid: String
    /// The model code.
    public var product: String?
    /// The family the model code names.
    public var family: String?
    /// The OS build.
    public var version: String?
    /// The serial number.
    public var serial: String?
    /// The device's name.
    public var deviceName: String?
    /// The IMEI as sent (absent on Wi-Fi-only devices).
    public var imei: String?
    /// The challenge echoed back.
    public var challenge: String?
    /// The device certificate that signed the reply (expiry is reported, never refused).
    public var signer: CertificateSummary?
    /// How many certificates the envelope carries.
    public var certificates: Int
    /// Whether the envelope was BER with indefinite lengths.
    public var usesBER: Bool

    /// Summarises `reply` as of `now`.
    public init(_ reply: DeviceEnrollmentReply, now: Date) {
        udid = reply.udid.value
        product = reply.product
        family = reply.product.flatMap(DeviceFamily.init(modelCode:))?.rawValue
        version = reply.version
        serial = reply.serial
        deviceName = reply.deviceName
        imei = reply.imei
        challenge = reply.challenge
        signer = reply.signer.map { CertificateSummary($0, now: now) }
        certificates = reply.certificates.count
        usesBER = reply.usesIndefiniteLengths
    }
}
