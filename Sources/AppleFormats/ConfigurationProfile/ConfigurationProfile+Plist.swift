extension ConfigurationProfile {
    /// Profiles are small; anything larger is not one.
    public static let maxSize = 4 << 20
    // A Configuration profile with more payloads than this is hostile, not real.
    static let maxPayloads = 1000

    /// Reads an unsigned profile (an XML or binary plist).
    public init(plistBytes bytes: [UInt8]) throws(ConfigurationProfileError) {
        guard bytes.count <= Self.maxSize else { throw ConfigurationProfileError.tooLarge(size: bytes.count, limit: Self.maxSize) }
        let value: PlistValue
        do { value = try PlistValue(parsing: bytes) } catch { throw ConfigurationProfileError.unreadablePlist(error) }
        try self.init(plist: value)
    }

    /// Reads a profile from its parsed plist. The keys Apple requires must be present with the
    /// right types; unknown keys are ignored.
    public init(plist: PlistValue) throws(ConfigurationProfileError) {
        guard let entries = plist.dictionary else { throw ConfigurationProfileError.notADictionary(found: plist.kindDescription) }
        let reader = Keys(entries: entries, path: "the profile")
        payloadType = try reader.required("PayloadType")
        identifier = try reader.required("PayloadIdentifier")
        uuid = try reader.required("PayloadUUID")
        version = try reader.integer("PayloadVersion") ?? 1
        displayName = try reader.optional("PayloadDisplayName")
        organization = try reader.optional("PayloadOrganization")
        payloadDescription = try reader.optional("PayloadDescription")
        guard let raw = entries["PayloadContent"] else { throw ConfigurationProfileError.missingKey("PayloadContent", in: "the profile") }
        if payloadType == Self.profileServiceType {
            guard let service = raw.dictionary else {
                throw ConfigurationProfileError.wrongType(key: "PayloadContent", in: "the profile", expected: "a dictionary", found: raw.kindDescription)
            }
            content = .profileService(try Self.profileService(service))
        } else {
            guard let list = raw.array else {
                throw ConfigurationProfileError.wrongType(key: "PayloadContent", in: "the profile", expected: "an array", found: raw.kindDescription)
            }
            guard list.count <= Self.maxPayloads else { throw ConfigurationProfileError.tooManyPayloads(count: list.count, limit: Self.maxPayloads) }
            var payloads: [Payload] = []
            for (index, item) in list.enumerated() {
                let path = "payload \(index + 1)"
                guard let fields = item.dictionary else {
                    throw ConfigurationProfileError.wrongType(key: "PayloadContent", in: path, expected: "a dictionary", found: item.kindDescription)
                }
                let keys = Keys(entries: fields, path: path)
                var settings = fields
                for key in ["PayloadType", "PayloadIdentifier", "PayloadUUID", "PayloadVersion", "PayloadDisplayName"] { settings[key] = nil }
                payloads.append(Payload(type: try keys.required("PayloadType"), identifier: try keys.required("PayloadIdentifier"),
                                        uuid: try keys.required("PayloadUUID"), version: try keys.integer("PayloadVersion") ?? 1,
                                        displayName: try keys.optional("PayloadDisplayName"), settings: settings))
            }
            content = .payloads(payloads)
        }
    }

    static func profileService(_ entries: [String: PlistValue]) throws(ConfigurationProfileError) -> ProfileService {
        let keys = Keys(entries: entries, path: "the Profile Service content")
        let url: String = try keys.required("URL")
        guard url.hasPrefix("https://") || url.hasPrefix("http://"), url.count > 8, !url.contains(where: { $0.isWhitespace }) else {
            throw ConfigurationProfileError.invalidValue(key: "URL", value: url, expected: "an http or https URL")
        }
        guard let raw = entries["DeviceAttributes"] else {
            throw ConfigurationProfileError.missingKey("DeviceAttributes", in: "the Profile Service content")
        }
        guard let attributes = raw.stringArray, !attributes.isEmpty else {
            throw ConfigurationProfileError.wrongType(key: "DeviceAttributes", in: "the Profile Service content",
                                                      expected: "a non-empty array of strings", found: raw.kindDescription)
        }
        return ProfileService(url: url, deviceAttributes: attributes, challenge: try keys.optional("Challenge"))
    }

    /// Typed access to one dictionary's keys, naming the dictionary in errors.
    struct Keys {
        let entries: [String: PlistValue]
        let path: String

        func optional(_ key: String) throws(ConfigurationProfileError) -> String? {
            guard let value = entries[key] else { return nil }
            guard let text = value.string else {
                throw ConfigurationProfileError.wrongType(key: key, in: path, expected: "a string", found: value.kindDescription)
            }
            return text
        }

        func required(_ key: String) throws(ConfigurationProfileError) -> String {
            guard let text = try optional(key) else { throw ConfigurationProfileError.missingKey(key, in: path) }
            guard !text.isEmpty else { throw ConfigurationProfileError.invalidValue(key: key, value: text, expected: "a non-empty string") }
            return text
        }

        func integer(_ key: String) throws(ConfigurationProfileError) -> Int? {
            guard let value = entries[key] else { return nil }
            guard let number = value.integer else {
                throw ConfigurationProfileError.wrongType(key: key, in: path, expected: "an integer", found: value.kindDescription)
            }
            return Int(clamping: number)
        }
    }

    /// The profile as a plist dictionary, ready for `xmlBytes()` and signing.
    public var plist: PlistValue {
        var entries: [String: PlistValue] = [
            "PayloadType": .string(payloadType), "PayloadIdentifier": .string(identifier),
            "PayloadUUID": .string(uuid), "PayloadVersion": .integer(Int64(version)),
        ]
        entries["PayloadDisplayName"] = displayName.map(PlistValue.string)
        entries["PayloadOrganization"] = organization.map(PlistValue.string)
        entries["PayloadDescription"] = payloadDescription.map(PlistValue.string)
        switch content {
        case let .payloads(payloads):
            entries["PayloadContent"] = .array(payloads.map { payload in
                var fields = payload.settings
                fields["PayloadType"] = .string(payload.type)
                fields["PayloadIdentifier"] = .string(payload.identifier)
                fields["PayloadUUID"] = .string(payload.uuid)
                fields["PayloadVersion"] = .integer(Int64(payload.version))
                fields["PayloadDisplayName"] = payload.displayName.map(PlistValue.string)
                return .dictionary(fields)
            })
        case let .profileService(service):
            var fields: [String: PlistValue] = ["URL": .string(service.url), "DeviceAttributes": .array(service.deviceAttributes.map(PlistValue.string))]
            fields["Challenge"] = service.challenge.map(PlistValue.string)
            entries["PayloadContent"] = .dictionary(fields)
        }
        return .dictionary(entries)
    }

    /// The profile as an unsigned XML `.mobileconfig`.
    public func xmlBytes() throws(PlistError) -> [UInt8] {
        try plist.xmlBytes()
    }
}
