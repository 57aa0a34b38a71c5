import Synchronization
import PosixIO

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
            do { try FileSystem.rename(path, to: destination) } catch let error as SystemCallError {
                throw HTTPError(.internalServerError, "cannot move upload \(path) to \(destination): errno \(error.errno)")
            }
            moved = true
        }
    }

    /// Reads the whole file.
    public func readAll() throws -> [UInt8] {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(path, .readOnly) } catch {
            throw HTTPError(.internalServerError, "cannot open upload \(path): errno \(error.errno)")
        }
        defer { try? fd.close() }
        let result: [UInt8]
        do { result = try fd.read(count: Int(size), at: 0) } catch {
            throw HTTPError(.internalServerError, "cannot read upload \(path): errno \(error.errno)")
        }
        guard result.count == Int(size) else { throw HTTPError(.internalServerError, "cannot read upload \(path): errno 0") }
        return result
    }

    deinit {
        if !moved.withLock({ $0 }) { _ = try? FileSystem.removeFile(path) }
    }
}
