import BetaKit
import Mustache

/// What every dashboard page shows around its content: the brand, the navigation, who is logged
/// in, the CSRF token its forms carry, and a notice or error from the last action.
struct AdminChrome: Sendable, MustacheRepresentable {
    /// One entry of the navigation.
    struct NavigationItem: Sendable {
        var label: String
        var path: String
    }

    /// The dashboard's areas, in navigation order.
    static let navigation = [
        NavigationItem(label: "Overview", path: "/admin"),
        NavigationItem(label: "Testers", path: "/admin/testers"),
        NavigationItem(label: "Devices", path: "/admin/devices"),
        NavigationItem(label: "Releases", path: "/admin/releases"),
        NavigationItem(label: "Profiles", path: "/admin/profiles"),
        NavigationItem(label: "Symbols", path: "/admin/symbols"),
        NavigationItem(label: "Crashes", path: "/admin/crashes"),
        NavigationItem(label: "Webhooks", path: "/admin/webhooks"),
        NavigationItem(label: "Provisioning", path: "/admin/provisioning"),
    ]

    var title: String
    var brandName: String
    var assets: AdminAssetLinks
    /// The current area's path, marked in the navigation.
    var area: String
    var session: AdminSession?
    var notice: String?
    var error: String?
    var errorItems: [String] = []

    var canWrite: Bool { session?.token.scope.allows(.write) ?? false }
    var canAdmin: Bool { session?.token.scope.allows(.admin) ?? false }

    var mustacheValue: MustacheValue {
        var value: [String: MustacheValue] = [
            "title": .string(title), "brandName": .string(brandName),
            "css": .string(assets.css), "adminCSS": .string(assets.adminCSS), "brandCSS": .string(assets.brandCSS),
            "js": .string(assets.adminJS), "favicon": .string(assets.favicon),
            "loggedIn": .bool(session != nil), "canWrite": .bool(canWrite), "canAdmin": .bool(canAdmin),
            "notice": notice.map(MustacheValue.string) ?? .null, "error": error.map(MustacheValue.string) ?? .null,
            "errorItems": .list(errorItems.map(MustacheValue.string)), "hasErrorItems": .bool(!errorItems.isEmpty),
            "nav": .list(Self.navigation.map { item in
                ["label": .string(item.label), "path": .string(item.path), "current": .bool(item.path == area)]
            }),
        ]
        if let session {
            value["csrf"] = .string(session.csrfToken)
            value["tokenName"] = .string(session.token.name)
            value["scope"] = .string(session.token.scope.rawValue)
        }
        return .object(value)
    }
}

/// Links to the dashboard's static files, with content versions.
struct AdminAssetLinks: Sendable {
    var css: String
    var adminCSS: String
    var brandCSS: String
    var adminJS: String
    var favicon: String
}
