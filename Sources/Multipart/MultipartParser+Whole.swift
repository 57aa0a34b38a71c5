#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension MultipartParser {
    /// Parses a whole body held in memory.
    public mutating func parse(_ body: [UInt8]) throws(MultipartError) -> [MultipartPart<Consumer.Value>] {
        try feed(body)
        return try finish()
    }

    /// Parses a whole body stored in a file (a request body spooled to disk), reading it in
    /// chunks of `chunkSize` bytes so that a large body is never in memory at once.
    public mutating func parseFile(atPath path: String, chunkSize: Int = 256 * 1024) throws(MultipartError) -> [MultipartPart<Consumer.Value>] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw readFailure(path) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: max(1, chunkSize))
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw readFailure(path) }
            if count == 0 { break }
            try buffer.withBytes { (bytes) throws(MultipartError) in try feed(UnsafeRawBufferPointer(rebasing: bytes[..<count])) }
        }
        return try finish()
    }

    /// A read error ends the parse like any other: what was stored is removed.
    private mutating func readFailure(_ path: String) -> MultipartError {
        let error = MultipartError.readFailed(path: path, reason: SpoolWriter.errorText(errno))
        fail(error)
        return error
    }
}
