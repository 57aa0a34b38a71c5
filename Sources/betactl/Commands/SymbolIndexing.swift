import BetaKit

/// Builds the indexes of symbols a command just archived, so that the first crash report of a
/// build symbolicates at once instead of waiting for `symbolicate` to index them.
enum SymbolIndexing {
    /// Indexes `keys` after the archive commit. A failure is only a warning: the symbols are
    /// archived and the index is derived data that `symbolicate` rebuilds on first use.
    static func indexArchived(_ keys: [SymbolKey], archive: Archive, invocation: Invocation) async {
        guard !keys.isEmpty else { return }
        let progress = ProgressLine(console: invocation.console, environment: invocation.environment)
        let failures = await archive.buildSymbolIndexes(for: keys, progress: progress.indexHandler)
        progress.finish()
        for failure in failures { invocation.warn(failure.description) }
    }
}
