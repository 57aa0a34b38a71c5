/// Why a Mach-O file could not be read.
public enum MachOError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes are not a Mach-O or fat file at all.
    case notMachO(reason: String)
    /// The file is Mach-O but a header or load command is inconsistent.
    case malformed(String)
    /// The requested architecture is not in the file.
    case missingArchitecture(String, available: [String])

    /// A sentence naming the problem and what to do.
    public var description: String {
        switch self {
        case let .notMachO(reason):
            return "not a Mach-O executable: \(reason); pass the executable inside the .app or the DWARF file inside the .dSYM"
        case let .malformed(detail):
            return "malformed Mach-O file: \(detail); the file is corrupt or truncated"
        case let .missingArchitecture(arch, available):
            return "the file has no \(arch) slice (it has \(available.joined(separator: ", "))); choose one of those architectures"
        }
    }
}
