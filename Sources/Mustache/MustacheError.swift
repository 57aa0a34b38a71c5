/// Why a template could not be loaded or rendered: which file, which line, which tag, and the fix.
///
/// `description` is one sentence such as `page.html line 12: the section {{#releases}} opened here
/// is never closed; add {{/releases}}`. `kind`, `path`, `line` and `tag` let callers and tests tell
/// problems apart without reading the text.
public struct MustacheError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// `{{` with no `}}` after it (or `{{{` closed by `}}`).
        case unclosedTag
        /// A tag with no name, such as `{{}}` or `{{#}}`.
        case emptyTag
        /// A name with characters other than letters, digits, `_`, `-` (and `.` between parts).
        case invalidName
        /// `{{=<% %>=}}`: changing the delimiters is not supported.
        case setDelimiter
        /// A tag of a Mustache feature this engine leaves out (template inheritance).
        case unsupportedTag
        /// A section opened and never closed.
        case unclosedSection
        /// A closing tag whose name is not the innermost open section's.
        case mismatchedClose
        /// A closing tag with no section open.
        case unopenedClose
        /// Sections nested deeper than `MustacheLimits.maximumSectionNesting` in one template.
        case nestingTooDeep
        /// A template larger than `MustacheLimits.maximumTemplateBytes`.
        case templateTooLarge
        /// A template file that is not UTF-8.
        case invalidEncoding
        /// Two templates with the same name.
        case duplicateTemplate
        /// `{{> name}}` naming no template of the library.
        case unknownPartial
        /// A partial that includes itself again whatever the data, so rendering could never end.
        case partialCycle
        /// Rendering asked for a template name the library does not hold.
        case unknownTemplate
        /// Partials nested deeper than `MustacheLimits.maximumPartialDepth` while rendering.
        case partialTooDeep
        /// Sections and partials nested deeper than `MustacheLimits.maximumRenderDepth` while rendering.
        case renderTooDeep
        /// A list or object printed with `{{name}}`, which has no text form.
        case notPrintable
        /// Rendering exceeded `MustacheLimits.maximumOutputBytes` or `maximumRenderSteps`.
        case outputTooLarge
    }

    /// What went wrong.
    public var kind: Kind
    /// The template file the problem is in (its path, or its name when it has no path); nil when
    /// the problem concerns no template, such as an unknown template name.
    public var path: String?
    /// The 1-based line of the tag; nil for problems of a whole file.
    public var line: Int?
    /// The tag concerned as a template author would write it, e.g. `{{#releases}}`.
    public var tag: String?
    /// The explanation and the fix, without the file and line.
    public var reason: String

    /// Creates an error; `reason` is the part of the sentence after the file and line.
    public init(_ kind: Kind, path: String?, line: Int?, tag: String?, reason: String) {
        self.kind = kind
        self.path = path
        self.line = line
        self.tag = tag
        self.reason = reason
    }

    /// One sentence: the file and line, what is wrong and how to fix it.
    public var description: String {
        switch (path, line) {
        case let (path?, line?): "\(path) line \(line): \(reason)"
        case let (path?, nil): "\(path): \(reason)"
        case (nil, _): reason
        }
    }
}
