/// One template, compiled: parsed once (at start-up) into literal chunks and tags, and rendered
/// through a `MustacheLibrary`, which resolves its partials.
///
/// The supported language is Mustache without set-delimiter tags, lambdas and inheritance:
/// `{{name}}` (HTML-escaped), `{{{name}}}` and `{{&name}}` (raw), sections `{{#name}}…{{/name}}`,
/// inverted sections `{{^name}}…{{/name}}`, comments `{{! … }}`, dotted names, `{{.}}` and
/// partials `{{> name}}`, with the spec's standalone-line and partial-indentation rules.
public struct MustacheTemplate: Sendable {
    /// The name partial tags and `MustacheLibrary.render` use for this template.
    public let name: String
    /// Where the template came from (e.g. `Templates/tester.html`), named in error messages.
    public let path: String
    /// The names of the partials this template includes, sorted, each once.
    public let partialNames: [String]
    let nodes: [MustacheNode]
    /// Every partial tag, in source order.
    let partialCalls: [MustacheNode.PartialCall]
    /// The bytes of the template's text, a first guess at an output buffer's size.
    let literalByteCount: Int

    /// Compiles `source`; errors name `path` (by default `name`), the line and the tag.
    public init(name: String, source: String, path: String? = nil, limits: MustacheLimits = MustacheLimits()) throws(MustacheError) {
        try self.init(name: name, bytes: Array(source.utf8), path: path, limits: limits)
    }

    /// Compiles UTF-8 bytes, such as a template file embedded in the binary; bytes that are not
    /// UTF-8 are refused.
    public init(name: String, bytes: [UInt8], path: String? = nil, limits: MustacheLimits = MustacheLimits()) throws(MustacheError) {
        let path = path ?? name
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw MustacheError(.invalidEncoding, path: path, line: nil, tag: nil,
                                reason: "the template is not valid UTF-8; save it as UTF-8")
        }
        self.name = name
        self.path = path
        nodes = try MustacheParser(source: bytes, path: path, limits: limits).parse()
        var calls: [MustacheNode.PartialCall] = []
        var literalBytes = 0
        Self.collect(nodes, calls: &calls, literalBytes: &literalBytes)
        partialNames = Set(calls.map(\.name)).sorted()
        partialCalls = calls
        literalByteCount = literalBytes
    }

    /// Walks the tree (its depth is bounded by the section nesting limit).
    private static func collect(_ nodes: [MustacheNode], calls: inout [MustacheNode.PartialCall], literalBytes: inout Int) {
        for node in nodes {
            switch node {
            case let .literal(literal): literalBytes += literal.bytes.count
            case .variable: break
            case let .section(section): collect(section.body, calls: &calls, literalBytes: &literalBytes)
            case let .partial(call): calls.append(call)
            }
        }
    }
}
