import AppleFormats

/// Why symbol files or indexes could not be used.
public enum SymbolicationError: Error, Sendable, CustomStringConvertible {
    /// A `--dsym` path is neither a dSYM bundle, a folder of dSYMs, nor a Mach-O file.
    case notASymbolFile(path: String, reason: String)
    /// The file does not contain the image with this UUID.
    case uuidNotInFile(uuid: String, path: String, available: [String])
    /// The file holds the image but not in a form that can be read.
    case unreadable(path: String, reason: String)
    /// An index file in the cache is damaged; the cache rebuilds it.
    case corruptIndex(path: String, reason: String)
    /// The index would exceed the format's limits (4 GiB of strings or 4 billion records).
    case tooLarge(path: String, what: String)
    /// A file-system call failed.
    case fileSystem(FileSystemError)

    /// A sentence naming the file and what to do.
    public var description: String {
        switch self {
        case let .notASymbolFile(path, reason):
            return "\(path) is not a dSYM: \(reason); pass a .dSYM bundle, a folder containing dSYMs, or the DWARF file inside Contents/Resources/DWARF"
        case let .uuidNotInFile(uuid, path, available):
            let list = available.isEmpty ? "no UUIDs" : available.joined(separator: ", ")
            return "\(path) does not contain image \(uuid) (it has \(list)); pass the dSYM built together with the crashed binary"
        case let .unreadable(path, reason):
            return "cannot read symbols from \(path): \(reason); regenerate the dSYM with dsymutil"
        case let .corruptIndex(path, reason):
            return "the symbol index \(path) is damaged (\(reason)); delete it and it will be rebuilt from the dSYM"
        case let .tooLarge(path, what):
            return "the symbol index for \(path) would hold more \(what) than the index format allows; split the dSYM per architecture with lipo"
        case let .fileSystem(error):
            return error.description
        }
    }
}
