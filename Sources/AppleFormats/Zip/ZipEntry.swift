/// One entry of a zip archive's central directory.
public struct ZipEntry: Sendable, Equatable {
    /// The entry's path inside the archive, with `/` separators.
    public var name: String
    /// The compression method: 0 stored, 8 deflated.
    public var method: UInt16
    /// The general-purpose flags (bit 0 encrypted, bit 3 data descriptor, bit 11 UTF-8).
    public var flags: UInt16
    /// The CRC-32 of the uncompressed data.
    public var crc32: UInt32
    /// Size of the stored (possibly compressed) data.
    public var compressedSize: UInt64
    /// Size after extraction.
    public var uncompressedSize: UInt64
    /// Offset of the local file header.
    public var localHeaderOffset: UInt64
    /// The external attributes; the high 16 bits hold the Unix mode for archives made on Unix.
    public var externalAttributes: UInt32
    /// The "version made by" host (3 = Unix).
    public var madeByHost: UInt8

    /// Whether the entry is a directory (name ends in `/`).
    public var isDirectory: Bool { name.hasSuffix("/") }

    /// Whether the entry is a symbolic link (Unix mode S_IFLNK), common inside frameworks.
    public var isSymbolicLink: Bool {
        madeByHost == 3 && (externalAttributes >> 16) & 0o170000 == 0o120000
    }

    /// Whether the Unix mode marks the entry executable.
    public var isExecutable: Bool {
        madeByHost == 3 && (externalAttributes >> 16) & 0o111 != 0
    }

    /// Whether the data is encrypted.
    public var isEncrypted: Bool { flags & 1 != 0 }
}
