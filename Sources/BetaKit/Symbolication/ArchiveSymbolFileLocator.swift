#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import Synchronization

/// Finds symbol files in the home's release archive, where dSYMs are stored content-addressed
/// and indexed by UUID and architecture.
///
/// The archive holds the symbols of the app's own builds (`release`, `add-symbols`), never those
/// of the operating system, so system images are not looked up. Created from a home path, the
/// locator opens the home's database only when first asked, so a symbolication whose app images
/// are indexed already (or given with `--dsym`) never opens it.
public struct ArchiveSymbolFileLocator: SymbolFileLocator {
    private let source: Source

    private enum Source: Sendable {
        case archive(Archive)
        case home(LazyHome)
    }

    private final class LazyHome: Sendable {
        let path: String
        let opened = Mutex<Result<Archive, any Error>?>(nil)
        init(path: String) { self.path = path }

        func archive() throws -> Archive {
            try opened.withLock { opened in
                // A failure is kept too: every later image would fail the same way.
                let result = opened ?? Result { Archive(home: try Home.open(at: path)) }
                opened = result
                return try result.get()
            }
        }
    }

    /// Creates a locator over `archive`.
    public init(archive: Archive) {
        source = .archive(archive)
    }

    /// Creates a locator over the archive of the home at `homePath`, opened on first use.
    public init(homePath: String) {
        source = .home(LazyHome(path: homePath))
    }

    /// The archived DWARF file of image `uuid`, if the archive has it.
    public func symbolFile(for uuid: UUID, architecture: MachOArchitecture?) throws -> SymbolFile? {
        let archive: Archive
        switch source {
        case let .archive(given): archive = given
        case let .home(home): archive = try home.archive()
        }
        guard let found = try archive.symbolLocation(uuid: uuid, architecture: architecture) else { return nil }
        return SymbolFile(path: found.path, uuid: uuid, architecture: found.architecture)
    }

    /// The archived file, except for operating-system images, which are never archived (so the
    /// database is not even opened for them).
    public func forEachSymbolFile(for uuid: UUID, architecture: MachOArchitecture?, isSystemImage: Bool,
                                  _ body: (SymbolFile) throws -> Bool) throws {
        guard !isSystemImage, let found = try symbolFile(for: uuid, architecture: architecture) else { return }
        _ = try body(found)
    }
}
