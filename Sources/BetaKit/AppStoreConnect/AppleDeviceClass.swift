import AppleFormats

/// Apple's `deviceClass` and `platform` values and the roster's families.
enum AppleDeviceClass {
    /// The family of an Apple `deviceClass`, or nil for one betactl does not know.
    static func family(_ deviceClass: String) -> DeviceFamily? {
        switch deviceClass {
        case "IPHONE": .iphone
        case "IPAD": .ipad
        case "IPOD": .ipod
        case "APPLE_WATCH": .watch
        case "APPLE_TV": .tv
        case "MAC": .mac
        case "APPLE_VISION_PRO", "VISION": .vision
        default: nil
        }
    }

    /// The `deviceClass` values of `family`.
    static func deviceClass(_ family: DeviceFamily) -> String {
        switch family {
        case .iphone: "IPHONE"
        case .ipad: "IPAD"
        case .ipod: "IPOD"
        case .watch: "APPLE_WATCH"
        case .tv: "APPLE_TV"
        case .mac: "MAC"
        case .vision: "APPLE_VISION_PRO"
        }
    }

    /// The `platform` a device of `family` is registered under.
    static func platform(_ family: DeviceFamily) -> String { family == .mac ? "MAC_OS" : "IOS" }

    /// Apple's date-time (`2026-03-01T10:00:00.000+0000`) in the database's form, or nil.
    static func timestamp(_ apple: String?) -> String? {
        guard let apple, apple.count >= 19 else { return nil }
        let stamp = String(apple.prefix(19)) + "Z"
        return Timestamp.date(stamp) == nil ? nil : stamp
    }
}
