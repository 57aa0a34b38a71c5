/// The built-in consumer: keeps a part in memory up to `memoryThreshold` bytes and moves it to a
/// new file (mode 0600) in `directory` as soon as it grows beyond, so a 500 MB upload never sits
/// in memory. The file is removed if the part is discarded or the consumer dropped unfinished.
///
/// Wrap it to do more with the bytes as they pass, for example hash an .ipa while it is written:
/// call the wrapped consumer's `consume` with the same bytes.
public struct SpoolingConsumer: MultipartPartConsumer {
    /// Where spool files are created; choose the file system the files will be moved to.
    public let directory: String
    /// Largest body kept in memory.
    public let memoryThreshold: Int
    /// Bytes consumed so far.
    public private(set) var count: Int64 = 0
    private var memory: [UInt8] = []
    private var writer: SpoolWriter?

    /// A consumer spooling to `directory` beyond `memoryThreshold` bytes (default 1 MiB).
    public init(directory: String, memoryThreshold: Int = 1 << 20) {
        self.directory = directory
        self.memoryThreshold = max(0, memoryThreshold)
    }

    /// Stores the next bytes, in memory or in the spool file.
    public mutating func consume(_ bytes: UnsafeRawBufferPointer) throws(MultipartError) {
        count += Int64(bytes.count)
        if let writer {
            try writer.write(bytes)
        } else if memory.count + bytes.count <= memoryThreshold {
            memory.append(contentsOf: bytes)
        } else {
            let file = try SpoolWriter(directory: directory)
            writer = file
            try memory.withBytes { (held) throws(MultipartError) in try file.write(held) }
            memory = []
            try file.write(bytes)
        }
    }

    /// The stored body.
    public mutating func finish() throws(MultipartError) -> MultipartValue {
        guard let file = writer else {
            defer { memory = [] }
            return .bytes(memory)
        }
        writer = nil
        return .file(try file.close())
    }

    /// Drops what was stored; the spool file, if any, is removed.
    public mutating func discard() {
        writer = nil
        memory = []
    }
}
