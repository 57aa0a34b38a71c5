/// One piece of a compiled template. Templates are compiled once; rendering walks these nodes and
/// appends to one byte buffer, so no template text is looked at again.
enum MustacheNode: Sendable {
    /// Template text copied as it is.
    case literal(Literal)
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}` (raw).
    case variable(Reference, escaped: Bool)
    /// `{{#name}}…{{/name}}`, or `{{^name}}…{{/name}}` when inverted.
    case section(Reference, body: [MustacheNode], inverted: Bool)
    /// `{{> name}}`.
    case partial(PartialCall)

    /// A run of template text, with the offsets where its source lines begin: a partial included
    /// on a line of its own indents each of its lines, and these are the places to do it.
    struct Literal: Sendable {
        var bytes: [UInt8]
        /// Offsets into `bytes` (0…count, ascending) where a line of the template starts.
        var lineStarts: [Int]
    }

    /// A name a tag looks up, and where the tag stands for messages.
    struct Reference: Sendable {
        /// The dotted name's parts; empty for `.`, the current context.
        var parts: [String]
        /// The tag as written, normalised (e.g. `{{#releases}}`), for messages.
        var tag: String
        /// The tag's 1-based line.
        var line: Int
    }

    /// An included partial.
    struct PartialCall: Sendable {
        var name: String
        /// The whitespace before a partial tag that stands alone on its line, prepended to every line
        /// of the partial; nil for a partial inside a line.
        var indentation: [UInt8]?
        /// Whether the tag sits inside a section of its template (and so depends on the data).
        var isConditional: Bool
        var tag: String
        var line: Int
    }
}
