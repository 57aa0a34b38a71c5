import PosixIO

/// A spool file being written: created 0600 with a fresh name, buffered, and removed on deinit
/// unless `close()` handed it over to a `SpooledFile`.
final class SpoolWriter {
    let path: String
    private let file: FileDescriptor
    private(set) var size: Int64 = 0
    private var buffer: [UInt8] = []
    private var closed = false
    private var handedOver = false
    /// Writes smaller than this are gathered so that tiny chunks do not cost a system call each.
    static let bufferSize = 64 * 1024

    init(directory: String) throws(MultipartError) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<8 {
            let candidate = directory + "/multipart-" + String(generator.next() as UInt64, radix: 16) + ".part"
            do {
                file = try FileDescriptor.open(candidate, .writeOnly, options: [.create, .exclusiveCreate], permissions: 0o600)
                path = candidate
                buffer.reserveCapacity(Self.bufferSize)
                return
            } catch where error.alreadyExists {
                continue
            } catch {
                throw .storageFailed(part: nil, reason: "cannot create a spool file in \(directory): \(error.reason)")
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
        closed = true
        do { try file.close() } catch { throw .storageFailed(part: nil, reason: "cannot close \(path): \(error.reason)") }
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
        do { try file.writeAll(bytes) } catch { throw .storageFailed(part: nil, reason: "cannot write \(path): \(error.reason)") }
        size += Int64(bytes.count)
    }

    deinit {
        if !closed { try? file.close() }
        if !handedOver { _ = try? FileSystem.removeFile(path) }
    }
}
