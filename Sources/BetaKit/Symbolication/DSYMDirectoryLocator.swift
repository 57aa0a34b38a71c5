#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import Synchronization
import PosixIO

/// Folder trees searched for dSYMs by UUID (`symbolicate --dsym-dir DIR`), the way
/// symbolicatecrash asked Spotlight: point it at a build server's "dSYM Archive" and each image
/// finds its own dSYM, however deep it lies.
///
/// The trees are walked once, on the first lookup (so a symbolication whose images are indexed
/// already never walks them), reading only the Mach-O headers of the DWARF files inside `.dSYM`
/// bundles. Symbolic links are not followed, and the walk is bounded in depth and entries, so a
/// huge or looping tree cannot hang the command. Paths are never given to a shell: spaces and
/// any other characters in names are fine.
public final class DSYMDirectoryLocator: ListingSymbolFileLocator, Sendable {
    /// The folders searched, in the order given.
    public let roots: [String]
    private let found = Mutex<[UUID: [SymbolFile]]?>(nil)

    // Deeper than any archive layout (team/app/version/build/…); looping trees are cut here.
    static let maxDepth = 32
    // Directory entries looked at in all; beyond this the walk stops and what was found is used.
    static let maxEntries = 2_000_000

    /// Uses `roots`; each must be a folder.
    public init(roots: [String]) throws(SymbolicationError) {
        for root in roots where FileKind(path: root) != .directory {
            let reason = FileKind(path: root) == .missing ? "no such folder" : "it is a file, not a folder (use --dsym for a single dSYM)"
            throw SymbolicationError.notASymbolFile(path: root, reason: reason)
        }
        self.roots = roots.map(\.withoutTrailingSlashes)
    }

    /// Every image found, by UUID (walking the trees if that has not happened yet).
    public var files: [UUID: [SymbolFile]] { index() }

    /// Every file found for `uuid`.
    public func listedSymbolFiles(for uuid: UUID) -> [SymbolFile] { index()[uuid] ?? [] }

    private func index() -> [UUID: [SymbolFile]] {
        found.withLock { found in
            if let found { return found }
            var result: [UUID: [SymbolFile]] = [:]
            var budget = Self.maxEntries
            for root in roots {
                // A root may itself be a dSYM bundle.
                let own = root + "/Contents/Resources/DWARF"
                let files = FileKind(path: own) == .directory
                    ? ((try? directoryEntries(own)) ?? []).filter { !$0.hasPrefix(".") }.sorted().map { own + "/" + $0 }
                    : Self.dwarfFiles(under: root, depth: 0, budget: &budget)
                for path in files {
                    for file in (try? DSYMPathLocator.images(inFile: path, strict: false)) ?? [] where result[file.uuid]?.contains(file) != true {
                        result[file.uuid, default: []].append(file)
                    }
                }
            }
            found = result
            return result
        }
    }

    /// The DWARF files of every `.dSYM` bundle at or below `folder`, in name order.
    static func dwarfFiles(under folder: String, depth: Int, budget: inout Int) -> [String] {
        guard depth <= maxDepth, budget > 0, let names = try? directoryEntries(folder) else { return [] }
        budget -= names.count
        var result: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let child = folder + "/" + name
            // lstat: a symbolic link is never followed, so no loop and no walk outside the tree.
            guard ((try? FileSystem.linkStatus(child)) ?? nil)?.kind == .directory else { continue }
            let dwarf = child + "/Contents/Resources/DWARF"
            if name.lowercased().hasSuffix(".dsym"), FileKind(path: dwarf) == .directory {
                let files = ((try? directoryEntries(dwarf)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
                result += files.map { dwarf + "/" + $0 }
            } else {
                result += dwarfFiles(under: child, depth: depth + 1, budget: &budget)
            }
        }
        return result
    }
}
