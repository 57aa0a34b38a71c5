/// Read access to the files of an input holding bundles (a directory, an .ipa's entries), for
/// verifying their signatures. Paths are relative to the input, `/`-separated, never starting
/// with `/`; directories are implied by the paths of their files.
public protocol CodeSignatureFileAccess {
    /// Every regular file and symbolic link.
    var entries: [String: CodeSignatureFileEntry] { get }
    /// Calls `body` with the whole contents of the regular file at `path`.
    func withContents<R>(of path: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R
}

/// One entry of a `CodeSignatureFileAccess`.
public enum CodeSignatureFileEntry: Sendable, Equatable {
    /// A regular file of `size` bytes.
    case file(size: UInt64)
    /// A symbolic link to `target`.
    case symbolicLink(target: String)
}

extension CodeSignatureFileAccess {
    /// The whole contents of `path` as an array, or nil when it is not a regular file or cannot be read.
    public func bytes(of path: String) -> [UInt8]? {
        guard case .file = entries[path] else { return nil }
        return try? withContents(of: path) { Array($0) }
    }
}
