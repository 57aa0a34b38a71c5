import PosixIO

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
    private var file: FileDescriptor?
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
        if file == nil && memory.count + data.count <= memoryLimit {
            memory.append(contentsOf: data)
            return
        }
        if file == nil {
            // mkstemp creates the file 0600; the name carries our pid so start-up can tell a
            // killed server's leftovers from a running one's (BodySpool.sweep).
            let created: FileDescriptor
            do { created = try FileSystem.makeTemporaryFile(template: BodySpool.template(in: directory, prefix: spoolPrefix)) } catch {
                failure = .storage(path: error.path ?? directory, errno: error.errno)
                return
            }
            file = created
            filePath = created.path
            let pending = memory
            memory = []
            pending.withUnsafeBytes { writeAll($0) }
        }
        writeAll(data)
    }

    private func writeAll(_ data: UnsafeRawBufferPointer) {
        guard let file else { return }
        do { try file.writeAll(data) } catch { failure = .storage(path: filePath ?? directory, errno: error.errno) }
    }

    /// Hands the body over; the reader no longer owns the file.
    func finish() -> RequestBody {
        if let file, let filePath {
            try? file.close()
            self.file = nil
            self.filePath = nil
            return .file(TemporaryFile(path: filePath, size: received))
        }
        return memory.isEmpty ? .empty : .bytes(memory)
    }

    /// Deletes any spooled data.
    func discard() {
        if let file {
            try? file.close()
            self.file = nil
        }
        if let filePath {
            _ = try? FileSystem.removeFile(filePath)
            self.filePath = nil
        }
        memory = []
    }
}
