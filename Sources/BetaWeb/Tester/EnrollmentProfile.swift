import AppleFormats

/// The Profile Service profile a tester's device installs to hand over its identifiers: iOS shows
/// it in Settings, the tester installs it, and the device posts the attributes it names, signed,
/// with the challenge, to the URL inside.
enum EnrollmentProfile {
    /// What the device is asked for; iOS leaves out what it does not have (IMEI on Wi-Fi-only devices).
    static let deviceAttributes = ["UDID", "PRODUCT", "VERSION", "SERIAL", "DEVICE_NAME", "IMEI"]

    /// The profile for a reply to `replyURL` carrying `challenge`.
    static func make(replyURL: String, challenge: String, brandName: String, publicURL: String, uuid: String) -> ConfigurationProfile {
        ConfigurationProfile(
            payloadType: ConfigurationProfile.profileServiceType, identifier: identifier(publicURL: publicURL), uuid: uuid, version: 1,
            displayName: "\(brandName): register this device", organization: brandName,
            payloadDescription: "Sends this device's identifiers (UDID, model, iOS version, serial number, name and IMEI) to \(brandName) so that test builds can be made for it. It installs nothing, and iOS removes it again as soon as it has answered.",
            content: .profileService(.init(url: replyURL, deviceAttributes: deviceAttributes, challenge: challenge)))
    }

    /// A stable reverse-DNS identifier from the home's public URL: `https://beta.example.com` gives
    /// `com.example.beta.betactl.enroll` (iOS replaces an installed profile with the same identifier).
    static func identifier(publicURL: String) -> String {
        var rest = Substring(publicURL)
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        let host = rest.prefix { $0 != "/" && $0 != ":" && $0 != "?" && $0 != "#" }
        let labels = host.split(separator: ".").map { label in
            String(label.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }).lowercased()
        }.filter { !$0.isEmpty }
        // An address says nothing about who runs the server.
        guard !labels.isEmpty, !labels.allSatisfy({ $0.allSatisfy(\.isNumber) }) else { return "betactl.enroll" }
        return labels.reversed().joined(separator: ".") + ".betactl.enroll"
    }
}
