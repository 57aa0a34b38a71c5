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

extension IngestedArtifact {
    /// The symbol keys of every DWARF file in this input.
    public var symbolKeys: Set<SymbolKey> {
        var keys = Set<SymbolKey>()
        for file in dwarfFiles {
            for slice in file.slices {
                if let uuid = slice.uuid { keys.insert(SymbolKey(uuid: uuid, architecture: slice.architecture)) }
            }
        }
        return keys
    }
}
