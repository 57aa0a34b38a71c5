import CZlib

/// Writes a zip archive sequentially to a sink, deflating entries as they stream in.
///
/// Sizes and CRCs follow each entry in a data descriptor, so nothing is buffered or
/// rewritten; the central directory switches to zip64 records when offsets pass 4 GB.
public struct ZipWriter {
    struct Record {
        var name: [UInt8]
        var crc: UInt32
        var compressedSize: UInt64
        var uncompressedSize: UInt64
        var offset: UInt64
        var mode: UInt32
        var method: UInt16
    }

    private let sink: (UnsafeRawBufferPointer) throws -> Void
    private var records: [Record] = []
    private var offset: UInt64 = 0
    /// The largest entry accepted; data descriptors here use 32-bit sizes.
    public static let maxEntrySize: UInt64 = 0xffff_fffe

    /// Creates a writer that hands every produced byte to `sink`, in order.
    public init(sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.sink = sink
    }

    private mutating func emit(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try sink($0) }
        offset += UInt64(bytes.count)
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0 ..< 4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
    private static func le64(_ value: UInt64) -> [UInt8] { (0 ..< 8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }

    /// Adds a directory entry (name ending in `/`).
    public mutating func addDirectory(_ name: String, mode: UInt32 = 0o40755) throws {
        try ZipEntryName.validate(name)
        let path = name.hasSuffix("/") ? name : name + "/"
        try begin(path, method: 0)
        try finish(path, crc: 0, compressed: 0, uncompressed: 0, mode: mode, method: 0)
    }

    /// Adds a file whose bytes `produce` delivers by calling its argument repeatedly; deflated when `compress`.
    public mutating func addFile(_ name: String, mode: UInt32 = 0o100644, compress: Bool = true,
                                 produce: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws {
        try ZipEntryName.validate(name)
        let method: UInt16 = compress ? 8 : 0
        try begin(name, method: method)
        var crc = CZlib.crc32(0, nil, 0)
        var uncompressed: UInt64 = 0
        var compressed: UInt64 = 0
        var stream = z_stream()
        if compress {
            guard deflateInit2_(&stream, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                throw ZipError.readFailed("zlib could not start deflating")
            }
        }
        defer { if compress { deflateEnd(&stream) } }
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
        defer { output.deallocate() }
        func pump(_ input: UnsafeRawBufferPointer, flush: Int32) throws {
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(input.count)
            repeat {
                stream.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(output.count)
                let status = deflate(&stream, flush)
                guard status != Z_STREAM_ERROR else { throw ZipError.readFailed("zlib deflate failed") }
                let produced = output.count - Int(stream.avail_out)
                if produced > 0 {
                    try sink(UnsafeRawBufferPointer(rebasing: output[0 ..< produced]))
                    compressed += UInt64(produced)
                }
            } while stream.avail_out == 0
        }
        try produce { chunk in
            guard chunk.count > 0 else { return }
            crc = ZipArchive.updateCRC(crc, chunk)
            uncompressed += UInt64(chunk.count)
            guard uncompressed <= Self.maxEntrySize else {
                throw ZipError.limitExceeded("\"\(name)\" is larger than the \(Self.maxEntrySize) bytes one entry may hold")
            }
            if compress {
                try pump(chunk, flush: Z_NO_FLUSH)
            } else {
                try sink(chunk)
                compressed += UInt64(chunk.count)
            }
        }
        if compress {
            try pump(UnsafeRawBufferPointer(start: nil, count: 0), flush: Z_FINISH)
        }
        // Deflate can grow incompressible data by a few bytes, past what a 32-bit size field holds.
        guard compressed <= Self.maxEntrySize else {
            throw ZipError.limitExceeded("\"\(name)\" compresses to \(compressed) bytes, more than the \(Self.maxEntrySize) bytes one entry may hold; store it uncompressed")
        }
        offset += compressed
        try finish(name, crc: UInt32(truncatingIfNeeded: crc), compressed: compressed, uncompressed: uncompressed, mode: mode, method: method)
    }

    /// Adds a symbolic link to `target`: the target is the entry's data, stored, and the Unix mode
    /// in the external attributes says S_IFLNK (as Info-ZIP's `zip -y` writes links).
    public mutating func addSymbolicLink(_ name: String, target: String) throws {
        let bytes = Array(target.utf8)
        try addFile(name, mode: 0o120755, compress: false) { deliver in try bytes.withUnsafeBytes { try deliver($0) } }
    }

    /// Adds `entry` of `archive` exactly as that archive stores it: its compressed bytes, CRC-32,
    /// sizes, method and mode are copied without inflating or deflating anything, under `name`
    /// (by default its own). The CRC-32 is not checked here: extracting the copy checks it.
    public mutating func copyEntry(_ entry: ZipEntry, of archive: ZipArchive, as name: String? = nil) throws {
        let name = name ?? entry.name
        try ZipEntryName.validate(name)
        guard entry.compressedSize <= Self.maxEntrySize, entry.uncompressedSize <= Self.maxEntrySize else {
            throw ZipError.limitExceeded("\"\(entry.name)\" is larger than the \(Self.maxEntrySize) bytes one entry may hold")
        }
        try begin(name, method: entry.method)
        var copied: UInt64 = 0
        let sink = self.sink
        try archive.rawData(of: entry) { chunk in
            try sink(chunk)
            copied += UInt64(chunk.count)
        }
        offset += copied
        let recorded = entry.unixMode ?? (entry.isDirectory ? 0o40755 : 0o100644)
        try finish(name, crc: entry.crc32, compressed: copied, uncompressed: entry.uncompressedSize, mode: recorded, method: entry.method)
    }

    private mutating func begin(_ name: String, method: UInt16) throws {
        let nameBytes = Array(name.utf8)
        guard nameBytes.count <= Int(UInt16.max) else {
            throw ZipError.limitExceeded("an entry name of \(nameBytes.count) bytes is longer than the 65535 bytes a zip name field holds; shorten the path")
        }
        records.append(Record(name: nameBytes, crc: 0, compressedSize: 0, uncompressedSize: 0, offset: offset, mode: 0, method: method))
        // Flags: bit 3 (sizes in a data descriptor), bit 11 (UTF-8 names).
        try emit(Self.le32(ZipArchive.localHeaderSignature) + Self.le16(20) + Self.le16(0x0808) + Self.le16(method)
                 + Self.le16(0) + Self.le16(0x21) + Self.le32(0) + Self.le32(0) + Self.le32(0)
                 + Self.le16(UInt16(nameBytes.count)) + Self.le16(0) + nameBytes)
    }

    private mutating func finish(_ name: String, crc: UInt32, compressed: UInt64, uncompressed: UInt64, mode: UInt32, method: UInt16) throws {
        let index = records.count - 1
        records[index].crc = crc
        records[index].compressedSize = compressed
        records[index].uncompressedSize = uncompressed
        records[index].mode = mode
        try emit(Self.le32(0x0807_4b50) + Self.le32(crc) + Self.le32(UInt32(compressed)) + Self.le32(UInt32(uncompressed)))
    }

    /// Writes the central directory and end records; the writer must not be used afterwards.
    public mutating func close() throws {
        let directoryStart = offset
        for record in records {
            let needsZip64 = record.offset >= 0xffff_ffff
            let extra = needsZip64 ? Self.le16(1) + Self.le16(8) + Self.le64(record.offset) : []
            try emit(Self.le32(ZipArchive.centralHeaderSignature) + Self.le16(0x0300 | 45) + Self.le16(needsZip64 ? 45 : 20)
                     + Self.le16(0x0808) + Self.le16(record.method) + Self.le16(0) + Self.le16(0x21) + Self.le32(record.crc)
                     + Self.le32(UInt32(record.compressedSize)) + Self.le32(UInt32(record.uncompressedSize))
                     + Self.le16(UInt16(record.name.count)) + Self.le16(UInt16(extra.count)) + Self.le16(0) + Self.le16(0) + Self.le16(0)
                     + Self.le32(record.mode << 16) + Self.le32(needsZip64 ? 0xffff_ffff : UInt32(record.offset)) + record.name + extra)
        }
        let directorySize = offset - directoryStart
        let zip64 = records.count >= 0xffff || directoryStart >= 0xffff_ffff || directorySize >= 0xffff_ffff
        if zip64 {
            let recordOffset = offset
            try emit(Self.le32(ZipArchive.zip64EndSignature) + Self.le64(44) + Self.le16(45) + Self.le16(45) + Self.le32(0) + Self.le32(0)
                     + Self.le64(UInt64(records.count)) + Self.le64(UInt64(records.count)) + Self.le64(directorySize) + Self.le64(directoryStart))
            try emit(Self.le32(ZipArchive.zip64LocatorSignature) + Self.le32(0) + Self.le64(recordOffset) + Self.le32(1))
        }
        let count = UInt16(min(records.count, 0xffff))
        try emit(Self.le32(ZipArchive.endOfCentralDirectorySignature) + Self.le16(0) + Self.le16(0) + Self.le16(count) + Self.le16(count)
                 + Self.le32(zip64 ? 0xffff_ffff : UInt32(directorySize)) + Self.le32(zip64 ? 0xffff_ffff : UInt32(directoryStart)) + Self.le16(0))
    }
}
