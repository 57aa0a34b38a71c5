/// A configuration profile (`.mobileconfig`): the top-level payload a device installs, as a typed
/// value that can be read from a plist and written back to one.
///
/// Two shapes matter to betactl. A `Configuration` profile carries a list of payloads (Wi-Fi,
/// certificates, …) that are only listed. A `Profile Service` profile is the first step of device
/// enrolment: its content names the URL the device posts its attributes to, the attributes it
/// must send and a challenge; the server writes those, and `inspect` reads them back.
public struct ConfigurationProfile: Sendable, Equatable {
    /// `PayloadType`: `Configuration` or `Profile Service`.
    public var payloadType: String
    /// `PayloadIdentifier`, reverse-DNS; a profile with the same identifier replaces an installed one.
    public var identifier: String
    /// `PayloadUUID`.
    public var uuid: String
    /// `PayloadVersion` (1 for every profile Apple documents).
    public var version: Int
    /// `PayloadDisplayName`, shown in Settings.
    public var displayName: String?
    /// `PayloadOrganization`.
    public var organization: String?
    /// `PayloadDescription`.
    public var payloadDescription: String?
    /// What the profile carries.
    public var content: Content

    /// The payload type of an enrolment profile.
    public static let profileServiceType = "Profile Service"
    /// The payload type of an ordinary profile.
    public static let configurationType = "Configuration"

    /// A profile's content.
    public enum Content: Sendable, Equatable {
        /// The payloads of a `Configuration` profile.
        case payloads([Payload])
        /// The request of a `Profile Service` profile.
        case profileService(ProfileService)
    }

    /// One payload of a `Configuration` profile; its settings are kept as they are.
    public struct Payload: Sendable, Equatable {
        /// `PayloadType`, such as `com.apple.wifi.managed`.
        public var type: String
        /// `PayloadIdentifier`.
        public var identifier: String
        /// `PayloadUUID`.
        public var uuid: String
        /// `PayloadVersion`.
        public var version: Int
        /// `PayloadDisplayName`.
        public var displayName: String?
        /// Every other key of the payload.
        public var settings: [String: PlistValue]

        /// Creates a payload.
        public init(type: String, identifier: String, uuid: String, version: Int = 1, displayName: String? = nil,
                    settings: [String: PlistValue] = [:]) {
            self.type = type
            self.identifier = identifier
            self.uuid = uuid
            self.version = version
            self.displayName = displayName
            self.settings = settings
        }
    }

    /// What a `Profile Service` profile asks of the device.
    public struct ProfileService: Sendable, Equatable {
        /// `URL`: where the device posts its signed attributes (http or https).
        public var url: String
        /// `DeviceAttributes`: the attributes asked for, such as `UDID`, `PRODUCT`, `VERSION`.
        public var deviceAttributes: [String]
        /// `Challenge`: echoed back by the device so the server can tie the reply to a tester.
        public var challenge: String?

        /// Creates a request.
        public init(url: String, deviceAttributes: [String], challenge: String? = nil) {
            self.url = url
            self.deviceAttributes = deviceAttributes
            self.challenge = challenge
        }
    }

    /// Creates a profile.
    public init(payloadType: String, identifier: String, uuid: String, version: Int = 1, displayName: String? = nil,
                organization: String? = nil, payloadDescription: String? = nil, content: Content) {
        self.payloadType = payloadType
        self.identifier = identifier
        self.uuid = uuid
        self.version = version
        self.displayName = displayName
        self.organization = organization
        self.payloadDescription = payloadDescription
        self.content = content
    }

    /// The payload types inside: the inner payloads' types, or `Profile Service`.
    public var payloadTypes: [String] {
        switch content {
        case let .payloads(payloads): payloads.map(\.type)
        case .profileService: [payloadType]
        }
    }

    /// The Profile Service request, if this is an enrolment profile.
    public var profileService: ProfileService? {
        if case let .profileService(service) = content { return service }
        return nil
    }
}
