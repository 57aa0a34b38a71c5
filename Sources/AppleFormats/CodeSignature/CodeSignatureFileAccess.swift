/// Read access to the files of an input holding bundles (a directory, an .ipa's entries), for
/// verifying their signatures. Paths are relative to the input, `/`-separated, never starting
/// with `/`; directories are implied by the paths of their files.
public protocol CodeSignatureFileAccess {
    /// Every regular file and symbolic link.
    var entries: [String: CodeSignatureFileEntry] { get }
    /// Calls `body` with the whole contents of the regular file at `path`.
    func withContents<R>(of path: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R
    /// Calls `body` with the contents of the regular file at `path` in consecutive chunks, so a
    /// large resource is hashed without being held whole (by default, one chunk: `withContents`).
    func withChunks(of path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws
    /// The SHA-256 of the regular file at `path` when the caller already computed it from the same
    /// bytes (a package just written from files it hashed), so it is not read again; nil by default.
    func knownSHA256(of path: String) -> [UInt8]?
}

/// One entry of a `CodeSignatureFileAccess`.
public enum CodeSignatureFileEntry: Sendable, Equatable {
    /// A regular file of `size` bytes.
    case file(size: UInt64)
    /// A symbolic link to `target`.
    case symbolicLink(target: String)

    /// Whether the link at `link` (relative to the bundle) to `target` resolves, as written, to a
    /// path inside the bundle: relative, and never climbing above the bundle's root.
    public static func linkStaysInside(link: String, target: String) -> Bool {
        guard !target.isEmpty, !target.hasPrefix("/") else { return false }
        var components = link.split(separator: "/", omittingEmptySubsequences: true).dropLast().map(String.init)
        for component in target.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..":
                guard !components.isEmpty else { return false }
                components.removeLast()
            default: components.append(String(component))
            }
        }
        return true
    }
}

extension CodeSignatureFileAccess {
    /// Nothing is known: every file is read and hashed.
    public func knownSHA256(of path: String) -> [UInt8]? { nil }

    /// The whole file as one chunk.
    public func withChunks(of path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try withContents(of: path) { try body($0) }
    }

    /// The whole contents of `path` as an array, or nil when it is not a regular file or cannot be read.
    public func bytes(of path: String) -> [UInt8]? {
        guard case .file = entries[path] else { return nil }
        return try? withContents(of: path) { Array($0) }
    }
}
