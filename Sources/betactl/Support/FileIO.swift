#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif
import BetaKit

/// Small file helpers for commands that read inputs and write outputs.
enum FileIO {
    /// Reads a whole input file of at most `limit` bytes. A path that names no file is bad input
    /// (exit 65), as it is for the commands that ingest bundles.
    static func readFile(_ path: String, limit: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let error = FileSystemError(operation: "open", path: path, errno: errno)
            guard error.errno == ENOENT || error.errno == ENOTDIR else { throw error }
            throw CommandFailure(description: error.description, category: .invalidInput)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileSystemError(operation: "stat", path: path, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw FileSystemError.notARegularFile(operation: "read", path: path, mode: info.st_mode) }
        guard Int(info.st_size) <= limit else {
            throw CommandFailure(description: "\(path) is \(info.st_size) bytes, larger than the \(limit)-byte limit for this kind of file; check that it is the right file", category: .invalidInput)
        }
        // Read straight into the array's storage: no zero-filling and no second copy.
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: Int(info.st_size)) { buffer, initialized in
            initialized = 0
            while initialized < buffer.count, let base = buffer.baseAddress {
                let n = systemRead(fd, base + initialized, buffer.count - initialized)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failure = errno }
                guard n > 0 else { break }
                initialized += n
            }
        }
        guard failure == 0 else { throw FileSystemError(operation: "read", path: path, errno: failure) }
        return bytes
    }

    /// Writes `bytes` to `path` atomically: a reader sees the old file or the whole new one, never half.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        try AtomicFile.write(bytes, to: path)
    }
}
