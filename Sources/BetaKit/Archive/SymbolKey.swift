#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// What ties an executable slice to its debug symbols: the LC_UUID and the architecture.
public struct SymbolKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The image UUID.
    public var uuid: UUID
    /// The slice architecture.
    public var architecture: MachOArchitecture

    /// Creates a key.
    public init(uuid: UUID, architecture: MachOArchitecture) {
        self.uuid = uuid
        self.architecture = architecture
    }

    /// "UUID (arch)".
    public var description: String { "\(uuid.uuidString) (\(architecture.name))" }

    /// Orders by UUID, then architecture name.
    public static func < (lhs: SymbolKey, rhs: SymbolKey) -> Bool {
        (lhs.uuid.uuidString, lhs.architecture.name) < (rhs.uuid.uuidString, rhs.architecture.name)
    }
}

/// An executable slice for which no dSYM was found.
public struct MissingSymbols: Sendable, Equatable, CustomStringConvertible {
    /// The executable's path inside the build.
    public var executablePath: String
    /// The slice's key.
    public var key: SymbolKey

    /// "Payload/Beta.app/Beta arm64 UUID".
    public var description: String { "\(executablePath) \(key.architecture.name) \(key.uuid.uuidString)" }
}

extension IngestedSlice {
    /// The key that ties this slice to its symbols; nil when the slice has no UUID.
    public var symbolKey: SymbolKey? { uuid.map { SymbolKey(uuid: $0, architecture: architecture) } }
}

extension IngestedDWARFFile {
    /// The symbol keys of this file's slices, in file order; slices without a UUID have none.
    public var symbolKeys: [SymbolKey] { slices.compactMap(\.symbolKey) }
}

extension IngestedArtifact {
    /// The symbol keys of every DWARF file in this input.
    public var symbolKeys: Set<SymbolKey> {
        dwarfFiles.reduce(into: Set<SymbolKey>()) { $0.formUnion($1.symbolKeys) }
    }
}
