import Synchronization
import PosixIO

/// A part's body stored in a file (mode 0600) because it was larger than the memory threshold.
/// The file is removed when the last reference goes away, unless it was moved away first.
public final class SpooledFile: Sendable {
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

    /// Renames the file to `destination` (on the same file system as the spool directory) so it
    /// outlives this value.
    public func move(to destination: String) throws(MultipartError) {
        try moved.withLock { (moved: inout Bool) throws(MultipartError) in
            guard !moved else { throw .storageFailed(part: nil, reason: "\(path) was already moved away") }
            do throws(SystemCallError) { try FileSystem.rename(path, to: destination) } catch {
                throw .storageFailed(part: nil, reason: "cannot move \(path) to \(destination): \(error.reason)")
            }
            moved = true
        }
    }

    /// Whether `move(to:)` took the file away.
    public var isMoved: Bool { moved.withLock { $0 } }

    /// Reads the whole file into memory; for tests and small files.
    public func readAll() throws(MultipartError) -> [UInt8] {
        do {
            let file = try FileDescriptor.open(path, .readOnly)
            defer { try? file.close() }
            return try file.readToEnd()
        } catch {
            throw .readFailed(path: path, reason: error.reason)
        }
    }

    deinit {
        if !moved.withLock({ $0 }) { _ = try? FileSystem.removeFile(path) }
    }
}
