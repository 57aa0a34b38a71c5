import AppleFormats
import Multipart
import PosixIO

/// An uploaded file as it was stored: where, how large, and its SHA-256 computed as it was written.
struct UploadedFile: Sendable {
    /// The file, in a private staging folder.
    var path: String
    /// The name the client gave, made safe (what the release records as its source).
    var name: String
    var size: Int64
    var sha256: HashDigest
}

/// What a form part became: a file on disk, or a small text field in memory.
enum UploadPart: Sendable {
    case file(UploadedFile)
    case text([UInt8])

    /// The field's text when it is a text field in valid UTF-8.
    var text: String? {
        guard case let .text(bytes) = self else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}

/// Stores one part of an upload form: file fields straight into their own file (mode 0600),
/// hashed on the way, so a 500 MB build is never in memory and is read once; text fields in memory
/// (their size is capped by the parser's per-field limits).
struct UploadPartConsumer: MultipartPartConsumer {
    private var writer: UploadFileWriter?
    private var text: [UInt8] = []

    /// A consumer writing to `path` (named `name` in messages), or keeping text when `path` is nil.
    init(path: String?, name: String) throws {
        writer = try path.map { try UploadFileWriter(path: $0, name: name) }
    }

    mutating func consume(_ bytes: UnsafeRawBufferPointer) throws {
        if let writer { try writer.write(bytes) } else { text.append(contentsOf: bytes) }
    }

    mutating func finish() throws -> UploadPart {
        guard let writer else { return .text(text) }
        self.writer = nil
        return .file(try writer.close())
    }

    mutating func discard() {
        writer = nil
        text = []
    }
}

/// A file being written from an upload: buffered, hashed, synced to disk when closed, and removed
/// if it is dropped before that (a failed or abandoned upload leaves nothing behind).
final class UploadFileWriter {
    let path: String
    let name: String
    private let file: FileDescriptor
    private var hasher = SHA256()
    private var size: Int64 = 0
    private var buffer: [UInt8] = []
    private var closed = false
    /// Writes are gathered into pieces of this size: few system calls, little memory.
    static let bufferSize = 256 * 1024

    init(path: String, name: String) throws {
        do {
            file = try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusiveCreate], permissions: 0o600)
        } catch {
            throw MultipartError.storageFailed(part: nil, reason: "cannot create \(name): \(error.reason)")
        }
        self.path = path
        self.name = name
        buffer.reserveCapacity(Self.bufferSize)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        hasher.update(bytes)
        size += Int64(bytes.count)
        if buffer.count + bytes.count > Self.bufferSize { try flush() }
        if bytes.count >= Self.bufferSize { try writeAll(bytes) } else { buffer.append(contentsOf: bytes) }
    }

    /// Writes what is left, syncs the file to disk and hands it over.
    func close() throws -> UploadedFile {
        try flush()
        do { try file.sync() } catch { throw failure("sync", error) }
        closed = true
        do { try file.close() } catch { throw failure("close", error) }
        return UploadedFile(path: path, name: name, size: size, sha256: hasher.finalize())
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        let pending = buffer
        buffer.removeAll(keepingCapacity: true)
        try pending.withUnsafeBytes { try writeAll($0) }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        do { try file.writeAll(bytes) } catch { throw failure("write", error) }
    }

    private func failure(_ operation: String, _ error: SystemCallError) -> MultipartError {
        .storageFailed(part: nil, reason: "cannot \(operation) \(name): \(error.reason)")
    }

    deinit {
        if !closed {
            try? file.close()
            _ = try? FileSystem.removeFile(path)
        }
    }
}
