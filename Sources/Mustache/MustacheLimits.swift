/// Bounds on what a template may be and what one rendering may do.
///
/// Templates are trusted files, but a slip (a partial that recurses on data that never ends, a
/// list inside a list inside a list) must end in a clear error instead of a hang, an exhausted
/// stack or gigabytes of output. The defaults are far beyond any real page.
public struct MustacheLimits: Hashable, Sendable {
    /// The largest template source, in bytes.
    public var maximumTemplateBytes: Int
    /// How deep sections may nest inside one template.
    public var maximumSectionNesting: Int
    /// How deep partials may include partials while rendering (recursive partials stop here).
    public var maximumPartialDepth: Int
    /// How deep sections and partials together may nest while rendering; this bounds the
    /// renderer's stack use whatever the templates and data (about 3 KB a level in a debug build,
    /// so the default stays within half of a 1 MiB server thread's stack).
    public var maximumRenderDepth: Int
    /// The most bytes one rendering may produce.
    public var maximumOutputBytes: Int
    /// The most template nodes one rendering may visit (literals, tags, section iterations); this
    /// bounds the time of templates that loop over lists inside lists.
    public var maximumRenderSteps: Int

    /// Limits with the given values; the defaults suit web pages.
    public init(
        maximumTemplateBytes: Int = 4 << 20,
        maximumSectionNesting: Int = 100,
        maximumPartialDepth: Int = 50,
        maximumRenderDepth: Int = 100,
        maximumOutputBytes: Int = 64 << 20,
        maximumRenderSteps: Int = 5_000_000
    ) {
        self.maximumTemplateBytes = maximumTemplateBytes
        self.maximumSectionNesting = maximumSectionNesting
        self.maximumPartialDepth = maximumPartialDepth
        self.maximumRenderDepth = maximumRenderDepth
        self.maximumOutputBytes = maximumOutputBytes
        self.maximumRenderSteps = maximumRenderSteps
    }
}
