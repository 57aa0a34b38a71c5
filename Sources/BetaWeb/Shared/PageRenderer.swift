import Mustache

/// Renders the pages from the loaded templates. Templates are parsed once, when the server starts:
/// a broken override fails the start with the file, line and tag, never a page view.
struct PageRenderer: Sendable {
    /// Templates every page needs; a template set without them cannot serve testers or the dashboard.
    static let required = ["tester", "release", "message", "admin-login", "admin-message", "admin-overview", "admin-testers", "admin-tester",
                           "admin-devices", "admin-releases", "admin-release", "admin-profiles", "admin-profile", "admin-symbols"]

    let library: MustacheLibrary

    init(assets: WebAssets) throws {
        var templates: [MustacheTemplate] = []
        for (name, source) in assets.templates.sorted(by: { $0.key < $1.key }) {
            templates.append(try MustacheTemplate(name: name, bytes: source.bytes, path: source.origin))
        }
        library = try MustacheLibrary(templates)
        for name in Self.required where library.template(named: name) == nil {
            throw WebAssetsError.missingTemplate(name)
        }
    }

    func render(_ name: String, _ model: some MustacheRepresentable) throws -> [UInt8] {
        try library.renderBytes(name, model.mustacheValue)
    }
}
