import Mustache
import Testing

/// One template rendered with some data (and partials) and the exact output expected.
struct RenderCase: Sendable, CustomTestStringConvertible {
    var name: String
    var template: String
    var data: MustacheValue = [:]
    var partials: [String: String] = [:]
    var expected: String

    var testDescription: String { name }

    /// Renders `template` as the template named `main` of a library that also holds `partials`.
    func render() throws -> String {
        try renderTemplate(template, data, partials: partials)
    }
}

/// Renders one template (named `main`) with `partials` beside it.
func renderTemplate(_ template: String, _ data: MustacheValue = [:], partials: [String: String] = [:]) throws -> String {
    var sources = partials
    sources["main"] = template
    return try MustacheLibrary(templates: sources).render("main", data)
}

/// The error loading `templates` throws, or nil when they load.
func loadError(_ templates: [String: String], limits: MustacheLimits = MustacheLimits()) -> MustacheError? {
    do {
        _ = try MustacheLibrary(templates: templates, limits: limits)
        return nil
    } catch {
        return error
    }
}

/// The error rendering `name` throws, or nil when it renders.
func renderError(_ library: MustacheLibrary, _ name: String, _ data: MustacheValue) -> MustacheError? {
    do {
        _ = try library.render(name, data)
        return nil
    } catch {
        return error
    }
}
