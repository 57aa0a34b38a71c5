#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file descriptor and the calls made on it, each wrapped once: interrupted calls
/// (`EINTR`) are retried, short reads and writes are continued, and failures throw a
/// `SystemCallError` naming the call and the file.
///
/// It does not own the descriptor: call `close()` when done (usually in a `defer`).
///
/// ```swift
/// let file = try FileDescriptor.open("/tmp/x", .writeOnly, options: [.create, .truncate], permissions: 0o600)
/// defer { try? file.close() }
/// try file.writeAll(Array("hello".utf8))
/// ```
public struct FileDescriptor: Sendable, Hashable {
    /// The descriptor number.
    public let rawValue: Int32
    /// The path it was opened from, for messages.
    public let path: String?

    /// Wraps an already open descriptor.
    public init(rawValue: Int32, path: String? = nil) {
        self.rawValue = rawValue
        self.path = path
    }

    /// How a file is opened for reading and writing.
    public enum AccessMode: Sendable {
        /// `O_RDONLY`
        case readOnly
        /// `O_WRONLY`
        case writeOnly
        /// `O_RDWR`
        case readWrite

        var flags: Int32 {
            switch self {
            case .readOnly: O_RDONLY
            case .writeOnly: O_WRONLY
            case .readWrite: O_RDWR
            }
        }
    }

    /// Extra `open` flags; `O_CLOEXEC` is always set.
    public struct Options: OptionSet, Sendable {
        /// The `open` flag bits.
        public let rawValue: Int32
        /// Options from `open` flag bits.
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// `O_CREAT`
        public static let create = Options(rawValue: O_CREAT)
        /// `O_EXCL`
        public static let exclusiveCreate = Options(rawValue: O_EXCL)
        /// `O_TRUNC`
        public static let truncate = Options(rawValue: O_TRUNC)
        /// `O_APPEND`
        public static let append = Options(rawValue: O_APPEND)
        /// `O_NOFOLLOW`
        public static let noFollow = Options(rawValue: O_NOFOLLOW)
    }

    /// Opens `path`, retrying when interrupted.
    public static func open(_ path: String, _ mode: AccessMode, options: Options = [],
                            permissions: mode_t = 0o644) throws(SystemCallError) -> FileDescriptor {
        while true {
            let fd = cOpen(path, mode.flags | options.rawValue | O_CLOEXEC, permissions)
            if fd >= 0 { return FileDescriptor(rawValue: fd, path: path) }
            let code = currentErrno()
            if code != EINTR { throw SystemCallError(operation: "open", path: path, errno: code) }
        }
    }

    /// Closes the descriptor. (`EINTR` is not retried: the descriptor is gone either way.)
    public func close() throws(SystemCallError) {
        if cClose(rawValue) != 0 { throw .current("close", path) }
    }

    /// Reads at most `buffer.count` bytes at the current offset; 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try retrying("read") { cRead(rawValue, base, buffer.count) }
    }

    /// Reads at most `buffer.count` bytes at `offset` without moving the file offset; 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SystemCallError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try retrying("read") { pread(rawValue, base, buffer.count, off_t(offset)) }
    }

    /// Reads `count` bytes at `offset`, fewer only when the file ends first.
    public func read(count: Int, at offset: Int64) throws(SystemCallError) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: max(0, count))
        var done = 0
        while done < result.count {
            let n = try result.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemCallError) -> Int in
                    try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]), at: offset + Int64(done))
                }
            }.get()
            if n == 0 { break }
            done += n
        }
        if done < result.count { result.removeSubrange(done...) }
        return result
    }

    /// Reads from the current offset to the end of the file.
    public func readToEnd(chunkSize: Int = 64 * 1024) throws(SystemCallError) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let n = try chunk.withUnsafeMutableBytes { buffer in Result { () throws(SystemCallError) -> Int in try read(into: buffer) } }.get()
            if n == 0 { return result }
            result.append(contentsOf: chunk[0 ..< n])
        }
    }

    /// Writes every byte of `bytes` at the current offset, continuing short writes.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let n = try retrying("write") { cWrite(rawValue, base + done, bytes.count - done) }
            if n == 0 { throw SystemCallError(operation: "write", path: path, errno: EIO) }
            done += n
        }
    }

    /// Writes every byte of `bytes` at the current offset.
    public func writeAll(_ bytes: [UInt8]) throws(SystemCallError) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(SystemCallError) in try writeAll(buffer) } }.get()
    }

    /// Writes every byte of `bytes` at `offset` without moving the file offset.
    public func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(SystemCallError) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let n = try retrying("write") { pwrite(rawValue, base + done, bytes.count - done, off_t(offset) + off_t(done)) }
            if n == 0 { throw SystemCallError(operation: "write", path: path, errno: EIO) }
            done += n
        }
    }

    /// Flushes the file's data and metadata to the disk (`fsync`).
    public func sync() throws(SystemCallError) {
        _ = try retrying("sync") { fsync(rawValue) }
    }

    /// Whether the descriptor is a terminal (`isatty`).
    public var isTerminal: Bool { isatty(rawValue) == 1 }

    /// Tells the kernel the file will be read from start to end (`posix_fadvise`, Linux only);
    /// only a hint, so a failure is ignored.
    public func adviseSequentialRead() {
        #if canImport(Glibc)
        _ = posix_fadvise(rawValue, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        #endif
    }

    /// The file's status (`fstat`).
    public func status() throws(SystemCallError) -> FileMetadata {
        var info = stat()
        guard fstat(rawValue, &info) == 0 else { throw .current("stat", path) }
        return FileMetadata(info)
    }

    /// Runs `call` until it is not interrupted; a negative result throws with `errno`.
    private func retrying<T: BinaryInteger>(_ operation: String, _ call: () -> T) throws(SystemCallError) -> Int {
        while true {
            let result = call()
            if result >= 0 { return Int(result) }
            let code = currentErrno()
            if code != EINTR { throw SystemCallError(operation: operation, path: path, errno: code) }
        }
    }
}

// The C calls under the names the methods above shadow.
#if canImport(Glibc)
private func cOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { Glibc.open(path, flags, mode) }
private func cClose(_ fd: Int32) -> Int32 { Glibc.close(fd) }
private func cRead(_ fd: Int32, _ base: UnsafeMutableRawPointer, _ count: Int) -> Int { Glibc.read(fd, base, count) }
private func cWrite(_ fd: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int { Glibc.write(fd, base, count) }
#elseif canImport(Darwin)
private func cOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { Darwin.open(path, flags, mode) }
private func cClose(_ fd: Int32) -> Int32 { Darwin.close(fd) }
private func cRead(_ fd: Int32, _ base: UnsafeMutableRawPointer, _ count: Int) -> Int { Darwin.read(fd, base, count) }
private func cWrite(_ fd: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int { Darwin.write(fd, base, count) }
#endif
