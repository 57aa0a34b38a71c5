#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A spool file being written: created 0600 with a fresh name, buffered, and removed on deinit
/// unless `close()` handed it over to a `SpooledFile`.
final class SpoolWriter {
    let path: String
    private var fd: Int32
    private(set) var size: Int64 = 0
    private var buffer: [UInt8] = []
    private var handedOver = false
    /// Writes smaller than this are gathered so that tiny chunks do not cost a system call each.
    static let bufferSize = 64 * 1024

    init(directory: String) throws(MultipartError) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<8 {
            let candidate = directory + "/multipart-" + String(generator.next() as UInt64, radix: 16) + ".part"
            let opened = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if opened >= 0 {
                path = candidate
                fd = opened
                buffer.reserveCapacity(Self.bufferSize)
                return
            }
            guard errno == EEXIST else {
                throw .storageFailed(part: nil, reason: "cannot create a spool file in \(directory): \(Self.errorText(errno))")
            }
        }
        throw .storageFailed(part: nil, reason: "cannot create a spool file in \(directory): every name tried exists")
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(MultipartError) {
        if buffer.count + bytes.count <= Self.bufferSize {
            buffer.append(contentsOf: bytes)
            return
        }
        try flush()
        if bytes.count < Self.bufferSize {
            buffer.append(contentsOf: bytes)
        } else {
            try writeAll(bytes)
        }
    }

    /// Writes what is buffered, closes the file and hands it to a `SpooledFile`, which now owns it.
    func close() throws(MultipartError) -> SpooledFile {
        try flush()
        let result = systemClose(fd)
        fd = -1
        guard result == 0 else { throw .storageFailed(part: nil, reason: "cannot close \(path): \(Self.errorText(errno))") }
        handedOver = true
        return SpooledFile(path: path, size: size)
    }

    private func flush() throws(MultipartError) {
        guard !buffer.isEmpty else { return }
        let pending = buffer
        buffer.removeAll(keepingCapacity: true)
        try pending.withBytes { (bytes) throws(MultipartError) in try writeAll(bytes) }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(MultipartError) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let written = systemWrite(fd, base + done, bytes.count - done)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw .storageFailed(part: nil, reason: "cannot write \(path): \(Self.errorText(errno))") }
            done += written
            size += Int64(written)
        }
    }

    static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }

    deinit {
        if fd >= 0 { _ = systemClose(fd) }
        if !handedOver { unlink(path) }
    }
}
