#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AppleFormats

/// Builds an installable .ipa (`Payload/<Name>.app/…`) from the app inside an .xcarchive,
/// zipped or a folder, streaming file by file and hashing what it writes. Symbolic links stay
/// links (a signed bundle's seal records them).
public enum IPAPackager {
    /// Writes the ipa to `output` (a new file) and returns its SHA-256 and size.
    public static func package(input: String, appBundlePath: String, to output: String) throws -> (digest: HashDigest, size: UInt64) {
        let fd = open(output, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileSystemError(operation: "create", path: output, errno: errno) }
        defer { close(fd) }
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
                var info = stat()
                let mode = stat(source.parent + path, &info) == 0 ? UInt32(info.st_mode) : 0o100644
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
        guard fsync(fd) == 0 else { throw FileSystemError(operation: "sync", path: output, errno: errno) }
        return (hasher.finalize(), size)
    }
}
