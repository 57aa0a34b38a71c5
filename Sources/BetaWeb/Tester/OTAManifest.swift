import AppleFormats

/// The manifest iOS reads after an `itms-services://?action=download-manifest` link: Apple's shape,
/// written with the project's own plist writer (never a text template, so no value can break the XML).
public struct OTAManifest: Sendable, Equatable {
    /// The ipa's absolute URL.
    public var packageURL: String
    /// The icon's absolute URL, when the build has an icon.
    public var iconURL: String?
    /// CFBundleIdentifier.
    public var bundleIdentifier: String
    /// The version shown by the installer (CFBundleShortVersionString, else CFBundleVersion).
    public var bundleVersion: String
    /// The app's name shown while it installs.
    public var title: String

    /// Creates a manifest.
    public init(packageURL: String, iconURL: String?, bundleIdentifier: String, bundleVersion: String, title: String) {
        self.packageURL = packageURL
        self.iconURL = iconURL
        self.bundleIdentifier = bundleIdentifier
        self.bundleVersion = bundleVersion
        self.title = title
    }

    /// The manifest as a property list: `items[0].assets` (software-package, then display-image and
    /// full-size-image when there is an icon) and `items[0].metadata`.
    public var plist: PlistValue {
        var assets: [PlistValue] = [.dictionary(["kind": .string("software-package"), "url": .string(packageURL)])]
        if let iconURL {
            assets.append(.dictionary(["kind": .string("display-image"), "url": .string(iconURL)]))
            assets.append(.dictionary(["kind": .string("full-size-image"), "url": .string(iconURL)]))
        }
        let metadata: PlistValue = .dictionary([
            "bundle-identifier": .string(bundleIdentifier),
            "bundle-version": .string(bundleVersion),
            "kind": .string("software"),
            "title": .string(title),
        ])
        return .dictionary(["items": .array([.dictionary(["assets": .array(assets), "metadata": metadata])])])
    }

    /// The XML property list iOS downloads.
    public func xmlBytes() throws -> [UInt8] { try plist.xmlBytes() }
}
