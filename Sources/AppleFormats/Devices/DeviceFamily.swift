/// A kind of Apple device. Apple counts the 100-device limit separately for each family.
public enum DeviceFamily: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
    /// iPhone.
    case iphone
    /// iPad.
    case ipad
    /// iPod touch.
    case ipod
    /// Apple Watch.
    case watch
    /// Apple TV.
    case tv
    /// Mac.
    case mac
    /// Apple Vision Pro.
    case vision

    /// The name Apple uses, for messages.
    public var displayName: String {
        switch self {
        case .iphone: "iPhone"
        case .ipad: "iPad"
        case .ipod: "iPod touch"
        case .watch: "Apple Watch"
        case .tv: "Apple TV"
        case .mac: "Mac"
        case .vision: "Apple Vision Pro"
        }
    }

    /// The plural display name, for messages about several devices.
    public var pluralName: String {
        switch self {
        case .iphone: "iPhones"
        case .ipad: "iPads"
        case .ipod: "iPod touch devices"
        case .watch: "Apple Watches"
        case .tv: "Apple TVs"
        case .mac: "Macs"
        case .vision: "Apple Vision Pro devices"
        }
    }

    /// The display name after its indefinite article, for "device … is an iPhone": every name
    /// but Mac starts with a vowel sound ("an iPhone", "an Apple Watch", "a Mac").
    public var withArticle: String { (self == .mac ? "a " : "an ") + displayName }

    /// The platform column of Apple's device upload file: `mac` for Macs, `ios` for everything else.
    public var uploadPlatform: DevicePlatform { self == .mac ? .mac : .ios }

    /// The family name as typed on the command line.
    public var description: String { rawValue }

    // Longest prefixes first so "iPad" does not shadow nothing and "Mac" does not catch "Macmini" wrongly.
    private static let modelPrefixes: [(String, DeviceFamily)] = [
        ("RealityDevice", .vision), ("AppleTV", .tv), ("iPhone", .iphone), ("iPad", .ipad), ("iPod", .ipod),
        ("Watch", .watch), ("MacBookAir", .mac), ("MacBookPro", .mac), ("MacBook", .mac), ("Macmini", .mac),
        ("MacPro", .mac), ("iMacPro", .mac), ("iMac", .mac), ("Mac", .mac),
        // A macOS virtual machine on Apple silicon (`VirtualMac2,1`): it enrols and is registered as a Mac.
        ("VirtualMac", .mac),
    ]

    /// The family of a model code such as `iPhone15,2` or `Watch6,1`, or nil when the code is not recognised.
    public init?(modelCode: String) {
        for (prefix, family) in Self.modelPrefixes where modelCode.hasPrefix(prefix) {
            let rest = modelCode.dropFirst(prefix.count)
            // Model codes are PREFIX + major "," minor, e.g. iPad13,4.
            let parts = rest.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
            self = family
            return
        }
        return nil
    }

    /// Parses a family name as typed (`iphone`, `iPad`, `apple-tv`, …).
    public init?(name: String) {
        let key = name.lowercased().filter { $0.isLetter }
        switch key {
        case "iphone": self = .iphone
        case "ipad": self = .ipad
        case "ipod", "ipodtouch": self = .ipod
        case "watch", "applewatch": self = .watch
        case "tv", "appletv": self = .tv
        case "mac": self = .mac
        case "vision", "visionpro", "applevisionpro": self = .vision
        default: return nil
        }
    }

    /// A family named in a device's free-text name ("Ann's iPad mini"), or nil when it names none.
    public init?(inferringFromName name: String) {
        let lower = name.lowercased()
        if lower.contains("iphone") { self = .iphone }
        else if lower.contains("ipad") { self = .ipad }
        else if lower.contains("ipod") { self = .ipod }
        else if lower.contains("watch") { self = .watch }
        else if lower.contains("apple tv") || lower.contains("appletv") { self = .tv }
        else if lower.contains("vision") { self = .vision }
        else if lower.contains("macbook") || lower.contains("imac") || lower.contains("mac mini") || lower.contains("mac studio") || lower.contains("mac pro") { self = .mac }
        else { return nil }
    }
}

/// The platform column of Apple's device files.
public enum DevicePlatform: String, Sendable, Codable {
    /// iPhone, iPad, iPod touch, Apple Watch, Apple TV and Vision Pro.
    case ios
    /// Mac.
    case mac
}
