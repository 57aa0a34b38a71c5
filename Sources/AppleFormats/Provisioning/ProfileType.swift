/// The kind of distribution a provisioning profile allows.
public enum ProfileType: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    /// Ad hoc: release build, installable on the listed devices. What betactl distributes.
    case adHoc = "ad-hoc"
    /// Development: debuggable (get-task-allow), installable on the listed devices.
    case development
    /// App Store (and TestFlight): installable only through Apple.
    case appStore = "app-store"
    /// Enterprise (in-house): installable on any device of the organisation.
    case enterprise

    /// Maps Apple's ProfileDistributionType from the DER-Encoded-Profile.
    public init?(distributionType: String) {
        switch distributionType.uppercased() {
        case "ADHOC": self = .adHoc
        case "LIMITED", "DEVELOPMENT": self = .development
        case "STORE", "APPSTORE": self = .appStore
        case "IN_HOUSE", "ENTERPRISE": self = .enterprise
        default: return nil
        }
    }

    /// Decides the type the way Xcode did before ProfileDistributionType existed:
    /// all devices means enterprise, a device list means development or ad hoc
    /// depending on get-task-allow, and no devices means App Store.
    public static func infer(hasDeviceList: Bool, provisionsAllDevices: Bool, getTaskAllow: Bool) -> ProfileType {
        if provisionsAllDevices { return .enterprise }
        if hasDeviceList { return getTaskAllow ? .development : .adHoc }
        return .appStore
    }

    /// The name after its indefinite article: "an ad hoc", "a development", "an App Store", "an enterprise".
    public var withArticle: String { (self == .development ? "a " : "an ") + description }

    /// The name people use: "ad hoc", "App Store", …
    public var description: String {
        switch self {
        case .adHoc: "ad hoc"
        case .development: "development"
        case .appStore: "App Store"
        case .enterprise: "enterprise"
        }
    }
}
