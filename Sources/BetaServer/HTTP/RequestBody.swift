#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A request body: nothing, bytes in memory, or a temporary file for large uploads.
public enum RequestBody: Sendable {
    /// No body was sent.
    case empty
    /// A body small enough to keep in memory.
    case bytes([UInt8])
    /// A large body streamed to disk; the file is deleted when the last reference goes away.
    case file(TemporaryFile)

    /// The body size in bytes.
    public var count: Int64 {
        switch self {
        case .empty: 0
        case .bytes(let bytes): Int64(bytes.count)
        case .file(let file): file.size
        }
    }

    /// Reads the whole body into memory, refusing bodies larger than `limit`.
    public func bytes(limit: Int64 = 64 * 1024 * 1024) throws -> [UInt8] {
        switch self {
        case .empty: return []
        case .bytes(let bytes): return bytes
        case .file(let file):
            guard file.size <= limit else {
                throw HTTPError(.contentTooLarge, "body of \(file.size) bytes exceeds the \(limit)-byte in-memory limit")
            }
            return try file.readAll()
        }
    }
}

/// A temporary file holding a request body, unlinked on deinit unless moved away.
public final class TemporaryFile: Sendable {
    /// Where the file is.
    public let path: String
    /// Its size in bytes.
    public let size: Int64
    private let moved: Mutex<Bool>

    init(path: String, size: Int64) {
        self.path = path
        self.size = size
        self.moved = Mutex(false)
    }

    /// Moves the file to `destination` (same file system) so it outlives the request.
    public func move(to destination: String) throws {
        try moved.withLock { moved in
            guard rename(path, destination) == 0 else {
                throw HTTPError(.internalServerError, "cannot move upload \(path) to \(destination): errno \(errno)")
            }
            moved = true
        }
    }

    /// Reads the whole file.
    public func readAll() throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw HTTPError(.internalServerError, "cannot open upload \(path): errno \(errno)") }
        defer { close(fd) }
        var result = [UInt8](repeating: 0, count: Int(size))
        var done = 0
        while done < result.count {
            let n = result.withUnsafeMutableBytes { buffer in buffer.baseAddress.map { pread(fd, $0 + done, buffer.count - done, off_t(done)) } ?? 0 }
            guard n > 0 else { throw HTTPError(.internalServerError, "cannot read upload \(path): errno \(errno)") }
            done += n
        }
        return result
    }

    deinit {
        if !moved.withLock({ $0 }) { unlink(path) }
    }
}
