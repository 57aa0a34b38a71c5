#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// A file that holds the symbols of one image: a dSYM's DWARF file or a Mach-O binary,
/// identified by the image's UUID and architecture.
public struct SymbolFile: Sendable, Hashable, CustomStringConvertible {
    /// Where the file is.
    public var path: String
    /// The LC_UUID of the slice that holds the image.
    public var uuid: UUID
    /// That slice's architecture.
    public var architecture: MachOArchitecture

    /// Creates a reference to the `architecture` slice of `path` whose UUID is `uuid`.
    public init(path: String, uuid: UUID, architecture: MachOArchitecture) {
        self.path = path
        self.uuid = uuid
        self.architecture = architecture
    }

    /// "UUID (arch) in path".
    public var description: String { "\(uuid.uuidString) (\(architecture.name)) in \(path)" }
}

/// Finds the symbol file for an image, given its UUID.
///
/// The symbolicator depends only on this protocol: explicit `--dsym` paths implement it
/// today (`DSYMPathLocator`), and the release archive, which stores dSYMs by UUID and
/// architecture, implements it too. Implementations must be cheap to call repeatedly.
public protocol SymbolFileLocator: Sendable {
    /// The file holding the image `uuid`, or nil when this locator has none. `architecture`
    /// is a hint (crash reports name it); the UUID alone identifies the image.
    func symbolFile(for uuid: UUID, architecture: MachOArchitecture?) throws -> SymbolFile?

    /// Offers every file this locator has for the image, best first, until `body` returns false.
    /// Used when the first file gave an index built from damaged debug information: another copy
    /// (a second `--dsym`, the archived one) may be intact. Files are looked up only as they are
    /// needed, so a locator that is never reached (the archive's database) is never opened.
    /// `isSystemImage` marks an image of the operating system (one the report places under
    /// `/System/`, `/usr/` and the like): locators that only hold the app's own symbols, such as
    /// the release archive, offer nothing for it without looking.
    func forEachSymbolFile(for uuid: UUID, architecture: MachOArchitecture?, isSystemImage: Bool,
                           _ body: (SymbolFile) throws -> Bool) throws
}

extension SymbolFileLocator {
    /// By default a locator has one file per image, the one `symbolFile` returns, and looks up
    /// system images like any other.
    public func forEachSymbolFile(for uuid: UUID, architecture: MachOArchitecture?, isSystemImage: Bool,
                                  _ body: (SymbolFile) throws -> Bool) throws {
        if let found = try symbolFile(for: uuid, architecture: architecture) { _ = try body(found) }
    }
}

/// Asks several locators in turn (for example the archive, then explicit `--dsym` paths).
public struct ChainedSymbolFileLocator: SymbolFileLocator {
    /// The locators, in the order they are asked.
    public var locators: [any SymbolFileLocator]

    /// Creates a chain.
    public init(_ locators: [any SymbolFileLocator]) {
        self.locators = locators
    }

    /// The first answer any locator gives.
    public func symbolFile(for uuid: UUID, architecture: MachOArchitecture?) throws -> SymbolFile? {
        for locator in locators {
            if let found = try locator.symbolFile(for: uuid, architecture: architecture) { return found }
        }
        return nil
    }

    /// Every file of every locator, in order, until `body` returns false.
    public func forEachSymbolFile(for uuid: UUID, architecture: MachOArchitecture?, isSystemImage: Bool,
                                  _ body: (SymbolFile) throws -> Bool) throws {
        var more = true
        for locator in locators where more {
            try locator.forEachSymbolFile(for: uuid, architecture: architecture, isSystemImage: isSystemImage) { file in
                more = try body(file)
                return more
            }
        }
    }
}

/// A locator that knows every file it has for an image up front (the `--dsym` paths, the folders
/// walked): it only lists them, and the lookups prefer slices of the asked architecture.
public protocol ListingSymbolFileLocator: SymbolFileLocator {
    /// Every file this locator has for the image `uuid`, in its own order.
    func listedSymbolFiles(for uuid: UUID) -> [SymbolFile]
}

extension ListingSymbolFileLocator {
    /// The first file listed for `uuid`, preferring a slice of `architecture`.
    public func symbolFile(for uuid: UUID, architecture: MachOArchitecture?) throws -> SymbolFile? {
        ordered(uuid, architecture).first
    }

    /// Every file listed for `uuid`, slices of `architecture` first, until `body` returns false.
    public func forEachSymbolFile(for uuid: UUID, architecture: MachOArchitecture?, isSystemImage: Bool,
                                  _ body: (SymbolFile) throws -> Bool) throws {
        for file in ordered(uuid, architecture) {
            if try !body(file) { return }
        }
    }

    func ordered(_ uuid: UUID, _ architecture: MachOArchitecture?) -> [SymbolFile] {
        let list = listedSymbolFiles(for: uuid)
        guard let architecture, list.count > 1 else { return list }
        return list.filter { $0.architecture == architecture } + list.filter { $0.architecture != architecture }
    }
}
