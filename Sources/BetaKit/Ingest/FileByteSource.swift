import AppleFormats
import PosixIO

/// A zip source that reads a file with `pread`, so an ipa of any size is
/// streamed with a fixed buffer instead of being loaded or mapped whole.
public final class FileByteSource: ZipByteSource, Sendable {
    /// The file's path.
    public let path: String
    /// The file's size when opened.
    public let size: UInt64
    private let descriptor: FileDescriptor

    /// Opens `path` for reading.
    public init(path: String) throws(FileSystemError) {
        self.path = path
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(path, .readOnly) } catch { throw FileSystemError(error, operation: "open") }
        let info: FileMetadata
        do { info = try fd.status() } catch {
            try? fd.close()
            throw FileSystemError(error, operation: "stat")
        }
        guard info.kind == .regularFile else {
            try? fd.close()
            throw FileSystemError.notARegularFile(operation: "read", path: path, kind: info.kind)
        }
        descriptor = fd
        size = UInt64(info.size)
    }

    deinit {
        try? descriptor.close()
    }

    /// Fills `buffer` from `offset`, retrying short reads.
    public func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws {
        var done = 0
        while done < buffer.count {
            guard let base = buffer.baseAddress else { return }
            let result: Int
            do {
                result = try descriptor.read(into: UnsafeMutableRawBufferPointer(start: base + done, count: buffer.count - done),
                                             at: Int64(offset) + Int64(done))
            } catch { throw FileSystemError(error, operation: "read") }
            guard result > 0 else {
                throw ZipError.readFailed("\(path) ended at byte \(offset + UInt64(done)); it changed or was truncated while being read")
            }
            done += result
        }
    }
}
