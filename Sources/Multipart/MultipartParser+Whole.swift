import PosixIO

extension MultipartParser {
    /// Parses a whole body held in memory.
    public mutating func parse(_ body: [UInt8]) throws(MultipartError) -> [MultipartPart<Consumer.Value>] {
        try feed(body)
        return try finish()
    }

    /// Parses a whole body stored in a file (a request body spooled to disk), reading it in
    /// chunks of `chunkSize` bytes so that a large body is never in memory at once.
    public mutating func parseFile(atPath path: String, chunkSize: Int = 256 * 1024) throws(MultipartError) -> [MultipartPart<Consumer.Value>] {
        let file: FileDescriptor
        do { file = try FileDescriptor.open(path, .readOnly) } catch { throw readFailure(error) }
        defer { try? file.close() }
        var buffer = [UInt8](repeating: 0, count: max(1, chunkSize))
        while true {
            let read = buffer.withUnsafeMutableBytes { raw in Result { () throws(SystemCallError) in try file.read(into: raw) } }
            guard case .success(let count) = read else {
                if case .failure(let failure) = read { throw readFailure(failure) }
                break
            }
            if count == 0 { break }
            try buffer.withBytes { (bytes) throws(MultipartError) in try feed(UnsafeRawBufferPointer(rebasing: bytes[..<count])) }
        }
        return try finish()
    }

    /// A read error ends the parse like any other: what was stored is removed.
    private mutating func readFailure(_ failure: SystemCallError) -> MultipartError {
        let error = MultipartError.readFailed(path: failure.path ?? "", reason: failure.reason)
        fail(error)
        return error
    }
}
