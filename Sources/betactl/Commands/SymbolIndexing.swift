import BetaKit

/// Builds the indexes of symbols a command just archived, so that the first crash report of a
/// build symbolicates at once instead of waiting for `symbolicate` to index them.
enum SymbolIndexing {
    /// Indexes `keys` after the archive commit. Problems are only warnings: the symbols are
    /// archived, the index is derived data that `symbolicate` rebuilds on first use, and damaged
    /// DWARF is worth knowing about while the build's intact dSYM can still be found.
    static func indexArchived(_ keys: [SymbolKey], archive: Archive, invocation: Invocation) async {
        guard !keys.isEmpty else { return }
        let progress = ProgressLine(console: invocation.console, environment: invocation.environment)
        let problems = await archive.buildSymbolIndexes(for: keys, progress: progress.indexHandler)
        progress.finish()
        for problem in problems { invocation.warn(problem.description) }
    }
}
