/// Random access to an archive's bytes, so the reader can stream a 500 MB ipa
/// from disk with bounded memory (the file-backed source lives in BetaKit).
public protocol ZipByteSource: Sendable {
    /// The total size in bytes.
    var size: UInt64 { get }
    /// Fills `buffer` completely with the bytes at `offset`, or throws.
    func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws
}

/// An in-memory archive.
public struct ZipMemorySource: ZipByteSource {
    /// The archive bytes.
    public let bytes: [UInt8]

    /// Wraps `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The number of bytes.
    public var size: UInt64 { UInt64(bytes.count) }

    /// Copies the requested range.
    public func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws {
        guard offset <= UInt64(bytes.count), UInt64(buffer.count) <= UInt64(bytes.count) - offset else {
            throw ZipError.readFailed("range \(offset)+\(buffer.count) lies outside the \(bytes.count)-byte archive")
        }
        bytes.withUnsafeBytes { raw in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[Int(offset) ..< Int(offset) + buffer.count]))
        }
    }
}

extension ZipByteSource {
    /// Reads `count` bytes at `offset` into a new array.
    func bytes(at offset: UInt64, count: Int) throws(ZipError) -> [UInt8] {
        guard count >= 0, offset <= size, UInt64(count) <= size - offset else {
            throw ZipError.malformed("a record at offset \(offset) of \(count) bytes runs past the end of the \(size)-byte file")
        }
        var out = [UInt8](repeating: 0, count: count)
        do {
            try out.withUnsafeMutableBytes { try read(at: offset, into: $0) }
        } catch let error as ZipError {
            throw error
        } catch {
            throw ZipError.readFailed("\(error)")
        }
        return out
    }
}
