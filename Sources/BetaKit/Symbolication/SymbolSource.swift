import PosixIO

/// Which file, in which state, a symbol index was built from: its path and what `stat(2)` said
/// about it (size, modification time, inode and device).
///
/// The cache keeps one index per UUID and architecture, but several files may hold that image
/// (an archived copy, a `--dsym` given on the command line, a damaged download and an intact
/// one). Recording the source lets the cache tell "the file I was built from" from "another copy",
/// and notice when its own source has gone or changed.
public struct SymbolSource: Sendable, Hashable, CustomStringConvertible {
    /// The file's path as given when the index was built.
    public var path: String
    /// Its size in bytes.
    public var size: UInt64
    /// Its modification time: seconds since 1970.
    public var modifiedSeconds: Int64
    /// Its modification time: nanoseconds within the second.
    public var modifiedNanoseconds: Int64
    /// Its inode number.
    public var inode: UInt64
    /// The device holding it.
    public var device: UInt64

    /// Creates a record from its parts.
    public init(path: String, size: UInt64, modifiedSeconds: Int64, modifiedNanoseconds: Int64, inode: UInt64, device: UInt64) {
        self.path = path
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
        self.inode = inode
        self.device = device
    }

    /// The file at `path` in the state `status` describes (a mapping's own `fstat`).
    public init(path: String, status: FileStatus) {
        self.init(path: path, size: status.size, modifiedSeconds: status.modifiedSeconds,
                  modifiedNanoseconds: status.modifiedNanoseconds, inode: status.inode, device: status.device)
    }

    /// The regular file at `path` as it is now, or nil when there is none.
    public init?(path: String) {
        guard let info = (try? FileSystem.status(path)) ?? nil, info.kind == .regularFile else { return nil }
        self.init(path: path, status: FileStatus(info))
    }

    /// Whether the file is still at `path`, unchanged since this record was made.
    public var isUnchanged: Bool { SymbolSource(path: path) == self }

    /// "path (N bytes)".
    public var description: String { "\(path) (\(size) bytes)" }
}
