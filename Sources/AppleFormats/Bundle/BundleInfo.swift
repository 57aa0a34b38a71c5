/// The parts of a bundle's Info.plist that betactl uses.
public struct BundleInfo: Sendable, Equatable {
    /// CFBundleIdentifier.
    public var bundleIdentifier: String
    /// CFBundleExecutable: the executable's file name inside the bundle.
    public var executableName: String?
    /// CFBundleDisplayName, else CFBundleName.
    public var displayName: String?
    /// CFBundleShortVersionString (the marketing version, "1.2.3").
    public var shortVersion: String?
    /// CFBundleVersion (the build number).
    public var buildVersion: String?
    /// MinimumOSVersion.
    public var minimumOSVersion: String?
    /// CFBundlePackageType (APPL, XPC!, FMWK, …).
    public var packageType: String?
    /// UIDeviceFamily (1 iPhone, 2 iPad, 4 Watch, …).
    public var deviceFamilies: [Int]
    /// NSExtension.NSExtensionPointIdentifier for app extensions.
    public var extensionPoint: String?
    /// WKWatchKitApp / WKApplication marks a watch app.
    public var isWatchApp: Bool
    /// Icon base names in preference order (CFBundleIcons, iPad variant, CFBundleIconFiles, CFBundleIconFile).
    public var iconNames: [String]
    /// CFBundleSupportedPlatforms, such as `iPhoneOS` or `iPhoneSimulator`.
    public var supportedPlatforms: [String] = []

    /// Reads an Info.plist (binary or XML).
    public init(bytes: [UInt8]) throws(PlistError) {
        let value = try PlistValue(parsing: bytes)
        try self.init(plist: value)
    }

    /// Reads an already parsed Info.plist.
    public init(plist: PlistValue) throws(PlistError) {
        guard let entries = plist.dictionary else {
            throw PlistError("Info.plist is \(plist.kindDescription), not a dictionary")
        }
        guard let identifier = entries["CFBundleIdentifier"]?.string, !identifier.isEmpty else {
            throw PlistError("Info.plist has no CFBundleIdentifier; every app and extension must have one")
        }
        bundleIdentifier = identifier
        executableName = entries["CFBundleExecutable"]?.string
        supportedPlatforms = entries["CFBundleSupportedPlatforms"]?.stringArray ?? []
        displayName = entries["CFBundleDisplayName"]?.string ?? entries["CFBundleName"]?.string
        shortVersion = entries["CFBundleShortVersionString"]?.string
        buildVersion = entries["CFBundleVersion"]?.string
        minimumOSVersion = entries["MinimumOSVersion"]?.string
        packageType = entries["CFBundlePackageType"]?.string
        deviceFamilies = entries["UIDeviceFamily"]?.array?.compactMap { $0.integer.map(Int.init) } ?? []
        extensionPoint = entries["NSExtension"]?["NSExtensionPointIdentifier"]?.string
        isWatchApp = entries["WKWatchKitApp"]?.bool == true || entries["WKApplication"]?.bool == true
        var names: [String] = []
        for key in ["CFBundleIcons", "CFBundleIcons~ipad"] {
            let primary = entries[key]?["CFBundlePrimaryIcon"]
            names += primary?["CFBundleIconFiles"]?.stringArray ?? []
            if let name = primary?["CFBundleIconName"]?.string { names.append(name) }
        }
        names += entries["CFBundleIconFiles"]?.stringArray ?? []
        if let single = entries["CFBundleIconFile"]?.string { names.append(single) }
        var seen = Set<String>()
        iconNames = names.filter { seen.insert($0).inserted }
    }
}
