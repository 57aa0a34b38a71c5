/// A set of named templates, compiled and checked once, that renders pages by name.
///
/// Loading refuses what could only fail later: a syntax error in any template, a partial tag
/// naming no template, and partials that include themselves whatever the data. Rendering is then
/// a walk over compiled nodes appending to one buffer.
///
/// ```swift
/// let library = try MustacheLibrary(templates: ["page": "<h1>{{title}}</h1>{{> footer}}", "footer": "<footer/>"])
/// let html = try library.render("page", ["title": "Builds"])
/// ```
public struct MustacheLibrary: Sendable {
    /// The limits rendering keeps to.
    public let limits: MustacheLimits
    let templates: [String: MustacheTemplate]

    /// A library of compiled templates; names must be unique and every partial must be among them.
    public init(_ templates: [MustacheTemplate], limits: MustacheLimits = MustacheLimits()) throws(MustacheError) {
        var byName: [String: MustacheTemplate] = [:]
        for template in templates {
            if let earlier = byName[template.name] {
                throw MustacheError(.duplicateTemplate, path: template.path, line: nil, tag: nil,
                                    reason: "a template named \(template.name) is already loaded from \(earlier.path); rename one of them")
            }
            byName[template.name] = template
        }
        self.templates = byName
        self.limits = limits
        try checkPartials()
    }

    /// Compiles `templates` (name to source); an error names the template, line and tag, and when
    /// several templates have errors the first by name is reported.
    public init(templates: [String: String], limits: MustacheLimits = MustacheLimits()) throws(MustacheError) {
        var compiled: [MustacheTemplate] = []
        for name in templates.keys.sorted() {
            guard let source = templates[name] else { continue }
            compiled.append(try MustacheTemplate(name: name, source: source, limits: limits))
        }
        try self.init(compiled, limits: limits)
    }

    /// Compiles the files under `folder` (such as `Templates`) of a path-to-bytes map like the
    /// one the EmbedAssets plugin generates. A template is named by its path below the folder
    /// (`Templates/tester.html` is `tester.html`) and errors name the whole path.
    public init(files: [String: [UInt8]], folder: String, limits: MustacheLimits = MustacheLimits()) throws(MustacheError) {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        var compiled: [MustacheTemplate] = []
        for path in files.keys.sorted() where path.hasPrefix(prefix) {
            guard let bytes = files[path] else { continue }
            let name = String(path.dropFirst(prefix.count))
            compiled.append(try MustacheTemplate(name: name, bytes: bytes, path: path, limits: limits))
        }
        try self.init(compiled, limits: limits)
    }

    /// The names of the templates, sorted.
    public var templateNames: [String] { templates.keys.sorted() }

    /// The template named `name`, if the library holds it.
    public func template(named name: String) -> MustacheTemplate? { templates[name] }

    /// Renders the template named `name` with `value` as the outermost context.
    public func render(_ name: String, _ value: MustacheValue) throws(MustacheError) -> String {
        String(decoding: try renderBytes(name, value), as: UTF8.self)
    }

    /// Renders the template named `name` with a model's value as the outermost context.
    public func render(_ name: String, _ model: some MustacheRepresentable) throws(MustacheError) -> String {
        try render(name, model.mustacheValue)
    }

    /// Renders the template named `name` to UTF-8 bytes, ready for a response body.
    public func renderBytes(_ name: String, _ value: MustacheValue) throws(MustacheError) -> [UInt8] {
        var output: [UInt8] = []
        try render(name, value, appendingTo: &output)
        return output
    }

    /// Renders the template named `name` at the end of `output`; when rendering fails, `output`
    /// is left as it was.
    public func render(_ name: String, _ value: MustacheValue, appendingTo output: inout [UInt8]) throws(MustacheError) {
        guard let template = templates[name] else {
            let known = templateNames
            let list = known.prefix(20).joined(separator: ", ") + (known.count > 20 ? ", …" : "")
            throw MustacheError(.unknownTemplate, path: nil, line: nil, tag: nil,
                                reason: "there is no template named \(name); the library holds \(known.isEmpty ? "none" : list)")
        }
        let start = output.count
        var renderer = MustacheRenderer(templates: templates, limits: limits, output: [], outputStart: start, contexts: [value])
        swap(&renderer.output, &output)
        renderer.output.reserveCapacity(start + template.literalByteCount + 1024)
        do throws(MustacheError) {
            try renderer.render(template.nodes, path: template.path, indentation: [])
            try renderer.checkBudget(nil, line: nil, path: template.path)
        } catch {
            swap(&renderer.output, &output)
            output.removeSubrange(start...)
            throw error
        }
        swap(&renderer.output, &output)
    }
}
