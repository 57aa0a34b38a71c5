#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// Finds symbol files in the home's release archive, where dSYMs are stored content-addressed
/// and indexed by UUID and architecture.
public struct ArchiveSymbolFileLocator: SymbolFileLocator {
    /// The archive asked.
    public let archive: Archive

    /// Creates a locator over `archive`.
    public init(archive: Archive) {
        self.archive = archive
    }

    /// The archived DWARF file of image `uuid`, if the archive has it.
    public func symbolFile(for uuid: UUID, architecture: MachOArchitecture?) throws -> SymbolFile? {
        guard let found = try archive.symbolLocation(uuid: uuid, architecture: architecture) else { return nil }
        return SymbolFile(path: found.path, uuid: uuid, architecture: found.architecture)
    }
}
