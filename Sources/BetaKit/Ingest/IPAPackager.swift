import AppleFormats
import PosixIO

/// Builds an installable .ipa (`Payload/<Name>.app/…`) from the app inside an .xcarchive,
/// zipped or a folder, streaming file by file and hashing what it writes. Symbolic links stay
/// links (a signed bundle's seal records them).
public enum IPAPackager {
    /// Writes the ipa to `output` (a new file) and returns its SHA-256 and size.
    public static func package(input: String, appBundlePath: String, to output: String) throws -> (digest: HashDigest, size: UInt64) {
        let fd = try FileDescriptor.createNew(output)
        defer { try? fd.close() }
        var hasher = SHA256()
        var size: UInt64 = 0
        var writer = ZipWriter { chunk in
            hasher.update(chunk)
            size += UInt64(chunk.count)
            try FileDigest.writeAll(fd, chunk, path: output)
        }
        let appName = appBundlePath.split(separator: "/").last.map(String.init) ?? "App.app"
        let prefix = appBundlePath + "/"
        try writer.addDirectory("Payload/")
        try writer.addDirectory("Payload/\(appName)/")
        if FileKind(path: input) == .directory {
            let source = try DirectoryBundleSource(root: input)
            for path in source.files(under: appBundlePath) {
                let target = "Payload/\(appName)/" + path.dropFirst(prefix.count)
                let (file, _) = try source.materialize(path)
                let mode = ((try? FileSystem.status(source.parent + path)) ?? nil).map { UInt32($0.mode) } ?? 0o100644
                try writer.addFile(target, mode: mode) { deliver in
                    try file.withBytes { bytes in
                        var start = 0
                        while start < bytes.count {
                            let end = min(bytes.count, start + (1 << 20))
                            try deliver(UnsafeRawBufferPointer(rebasing: bytes[start ..< end]))
                            start = end
                        }
                    }
                }
            }
            for (path, destination) in source.symbolicLinks.sorted(by: { $0.key < $1.key }) where path.hasPrefix(prefix) {
                try writer.addSymbolicLink("Payload/\(appName)/" + path.dropFirst(prefix.count), target: destination)
            }
        } else {
            // Entries (links included) are copied still compressed: ingest already checked their CRCs.
            let archive = try ZipArchive(source: try FileByteSource(path: input))
            for entry in archive.entries where entry.name.hasPrefix(prefix) && !entry.isDirectory {
                try writer.copyEntry(entry, of: archive, as: "Payload/\(appName)/" + entry.name.dropFirst(prefix.count))
            }
        }
        try writer.close()
        try withFileSystemError("sync") { () throws(SystemCallError) in try fd.sync() }
        return (hasher.finalize(), size)
    }
}
