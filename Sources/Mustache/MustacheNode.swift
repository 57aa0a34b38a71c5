/// One piece of a compiled template. Templates are compiled once; rendering walks these nodes and
/// appends to one byte buffer, so no template text is looked at again.
///
/// Each case holds one immutable object, so walking the nodes copies one reference per node
/// instead of every array and string inside it (which measurably dominated rendering time).
enum MustacheNode: Sendable {
    /// Template text copied as it is.
    case literal(Literal)
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}` (raw).
    case variable(Reference)
    /// `{{#name}}…{{/name}}`, or `{{^name}}…{{/name}}` when inverted.
    case section(Section)
    /// `{{> name}}`.
    case partial(PartialCall)

    /// A run of template text, with the offsets where its source lines begin: a partial included
    /// on a line of its own indents each of its lines, and these are the places to do it.
    final class Literal: Sendable {
        let bytes: [UInt8]
        /// Offsets into `bytes` (0…count, ascending) where a line of the template starts.
        let lineStarts: [Int]

        init(bytes: [UInt8], lineStarts: [Int]) {
            self.bytes = bytes
            self.lineStarts = lineStarts
        }
    }

    /// A name a tag looks up, and where the tag stands for messages.
    final class Reference: Sendable {
        /// The dotted name's parts; empty for `.`, the current context.
        let parts: [String]
        /// Whether `{{name}}` escapes HTML (false for `{{{name}}}` and `{{&name}}`).
        let escaped: Bool
        /// The tag as written, normalised (e.g. `{{#releases}}`), for messages.
        let tag: String
        /// The tag's 1-based line.
        let line: Int

        init(parts: [String], escaped: Bool, tag: String, line: Int) {
            self.parts = parts
            self.escaped = escaped
            self.tag = tag
            self.line = line
        }
    }

    /// A section and its body.
    final class Section: Sendable {
        let reference: Reference
        let body: [MustacheNode]
        let inverted: Bool

        init(reference: Reference, body: [MustacheNode], inverted: Bool) {
            self.reference = reference
            self.body = body
            self.inverted = inverted
        }
    }

    /// An included partial.
    final class PartialCall: Sendable {
        let name: String
        /// The whitespace before a partial tag that stands alone on its line, prepended to every line
        /// of the partial; nil for a partial inside a line.
        let indentation: [UInt8]?
        /// Whether the tag sits inside a section of its template (and so depends on the data).
        let isConditional: Bool
        let tag: String
        let line: Int

        init(name: String, indentation: [UInt8]?, isConditional: Bool, tag: String, line: Int) {
            self.name = name
            self.indentation = indentation
            self.isConditional = isConditional
            self.tag = tag
            self.line = line
        }
    }
}
