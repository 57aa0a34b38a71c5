#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a request body could not be read.
enum BodyError: Error {
    case framing(HTTPParseError)
    case tooLarge(limit: Int64)
    case storage(path: String, errno: Int32)
}

/// Reads one request body from the connection's buffer: in memory while small, spilling to a temporary file.
final class BodyReader {
    private var remaining: Int64
    private var decoder: ChunkedDecoder?
    private let limit: Int64
    /// With a drain limit, bytes beyond `limit` are read and dropped up to this total.
    private let drainLimit: Int64?
    /// Whether bytes beyond `limit` were dropped.
    private(set) var exceededLimit = false
    private let memoryLimit: Int
    private let directory: String
    private let spoolPrefix: String
    private var memory: [UInt8] = []
    private var fileDescriptor: Int32 = -1
    private var filePath: String?
    private(set) var received: Int64 = 0
    private var failure: BodyError?

    init(framing: BodyFraming, limit: Int64, drainLimit: Int64? = nil, limits: HTTPLimits, directory: String,
         spoolPrefix: String = BodySpool.defaultPrefix) {
        switch framing {
        case .length(let length): remaining = length
        case .chunked:
            remaining = 0
            decoder = ChunkedDecoder(lineLimit: limits.chunkLineBytes, trailerLimit: limits.headerSectionBytes)
        case .none: remaining = 0
        }
        self.limit = limit
        self.drainLimit = drainLimit
        self.memoryLimit = limits.bodyMemoryBytes
        self.directory = directory
        self.spoolPrefix = spoolPrefix
    }

    deinit { discard() }

    var isDone: Bool {
        if let decoder { return decoder.isDone }
        return remaining == 0
    }

    /// Takes body bytes from the front of `input`; returns how many were used.
    func consume(_ input: UnsafeRawBufferPointer) throws(BodyError) -> Int {
        if var chunked = decoder {
            let used: Int
            do {
                used = try chunked.decode(input) { data in self.append(data) }
            } catch {
                throw .framing(error)
            }
            decoder = chunked
            if let failure { throw failure }
            return used
        }
        let take = Int(min(Int64(input.count), remaining))
        append(UnsafeRawBufferPointer(rebasing: input[0..<take]))
        remaining -= Int64(take)
        if let failure { throw failure }
        return take
    }

    private func append(_ whole: UnsafeRawBufferPointer) {
        guard failure == nil, whole.count > 0 else { return }
        let before = received
        received += Int64(whole.count)
        var data = whole
        if received > limit {
            guard let drainLimit, received <= drainLimit else {
                failure = .tooLarge(limit: drainLimit ?? limit)
                return
            }
            // Keep what still fits under the limit; the rest is read only to be dropped.
            exceededLimit = true
            let room = Int(max(0, limit - before))
            guard room > 0 else { return }
            data = UnsafeRawBufferPointer(rebasing: whole[0 ..< room])
        }
        if fileDescriptor < 0 && memory.count + data.count <= memoryLimit {
            memory.append(contentsOf: data)
            return
        }
        if fileDescriptor < 0 {
            // mkstemp creates the file 0600; the name carries our pid so start-up can tell a
            // killed server's leftovers from a running one's (BodySpool.sweep).
            var template = Array(BodySpool.template(in: directory, prefix: spoolPrefix).utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
            let code = errno
            let path = template.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { String(cString: $0) } ?? directory }
            guard fd >= 0 else {
                failure = .storage(path: path, errno: code)
                return
            }
            fileDescriptor = fd
            filePath = path
            let pending = memory
            memory = []
            pending.withUnsafeBytes { writeAll($0) }
        }
        writeAll(data)
    }

    private func writeAll(_ data: UnsafeRawBufferPointer) {
        guard let base = data.baseAddress else { return }
        var offset = 0
        while offset < data.count {
            let written = write(fileDescriptor, base + offset, data.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = .storage(path: filePath ?? directory, errno: errno)
                return
            }
            offset += written
        }
    }

    /// Hands the body over; the reader no longer owns the file.
    func finish() -> RequestBody {
        if fileDescriptor >= 0, let filePath {
            close(fileDescriptor)
            fileDescriptor = -1
            self.filePath = nil
            return .file(TemporaryFile(path: filePath, size: received))
        }
        return memory.isEmpty ? .empty : .bytes(memory)
    }

    /// Deletes any spooled data.
    func discard() {
        if fileDescriptor >= 0 {
            close(fileDescriptor)
            fileDescriptor = -1
        }
        if let filePath {
            unlink(filePath)
            self.filePath = nil
        }
        memory = []
    }
}
