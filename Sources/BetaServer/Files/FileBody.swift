import PosixIO

/// An open, read-only file descriptor shared by the responses that send it; closed on deinit.
public final class OpenFile: Sendable {
    /// The descriptor.
    public let descriptor: Int32
    /// The path it was opened from, for messages.
    public let path: String

    /// Opens `path` read-only.
    public init(path: String) throws(HTTPError) {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(path, .readOnly) } catch {
            let code = error.errno
            if error.isNotFound { throw HTTPError(.notFound, "no such file") }
            if code == Errno.accessDenied { throw HTTPError(.forbidden, "file is not readable") }
            if code == Errno.tooManyOpenFiles || code == Errno.tooManyOpenFilesInSystem {
                throw HTTPError(.serviceUnavailable, "cannot open \(path): out of file descriptors (errno \(code))",
                                headers: ["Retry-After": "5"])
            }
            // The path and errno are for the log; ErrorMiddleware shows the client only the request id.
            throw HTTPError(.internalServerError, "cannot open \(path): \(error.reason) (errno \(code))")
        }
        descriptor = fd.rawValue
        self.path = path
    }

    deinit { try? FileDescriptor(rawValue: descriptor, path: path).close() }
}

/// A body made of literal bytes and file regions, e.g. a whole file, one range, or multipart/byteranges.
public struct FileBody: Sendable {
    /// One piece of the body.
    public enum Part: Sendable {
        /// Literal bytes (multipart boundaries and part headers).
        case bytes([UInt8])
        /// `length` bytes of `file` starting at `offset`, sent with sendfile.
        case region(OpenFile, offset: Int64, length: Int64)
    }

    /// The pieces in order.
    public var parts: [Part]

    /// Creates a body from pieces.
    public init(parts: [Part]) { self.parts = parts }

    /// The total number of bytes.
    public var length: Int64 {
        parts.reduce(0) { total, part in
            switch part {
            case .bytes(let bytes): total + Int64(bytes.count)
            case .region(_, _, let length): total + length
            }
        }
    }
}
