import CZlib

extension ZipArchive {
    /// Bytes read from the archive per step; also the size of each chunk handed to the sink.
    static let chunkSize = 256 * 1024

    /// Streams the uncompressed bytes of `entry` to `sink` in chunks, checking size and CRC-32.
    ///
    /// Memory stays at two chunk buffers whatever the entry size. A deflate stream
    /// that produces more than the declared size is stopped at that size.
    public func extract(_ entry: ZipEntry, to sink: (UnsafeRawBufferPointer) throws -> Void) throws(ZipError) {
        let dataStart = try checkedDataOffset(of: entry)
        if entry.method == 0 && entry.compressedSize != entry.uncompressedSize {
            throw ZipError.corruptEntry(entry: entry.name, "it is stored uncompressed but its sizes differ (\(entry.compressedSize) vs \(entry.uncompressedSize))")
        }
        var crc = CZlib.crc32(0, nil, 0)
        var produced: UInt64 = 0
        let deliver = { (chunk: UnsafeRawBufferPointer) throws(ZipError) in
            guard chunk.count > 0 else { return }
            produced &+= UInt64(chunk.count)
            guard produced <= entry.uncompressedSize else {
                throw ZipError.limitExceeded("\"\(entry.name)\" expands beyond its declared \(entry.uncompressedSize) bytes")
            }
            crc = Self.updateCRC(crc, chunk)
            do { try sink(chunk) } catch let error as ZipError { throw error } catch { throw ZipError.sinkFailed("\(error)") }
        }
        if entry.method == 0 {
            try copyStored(entry, from: dataStart, deliver: deliver)
        } else {
            try inflate(entry, from: dataStart, deliver: deliver)
        }
        guard produced == entry.uncompressedSize else {
            throw ZipError.corruptEntry(entry: entry.name, "it extracted to \(produced) bytes but declares \(entry.uncompressedSize)")
        }
        guard UInt32(crc) == entry.crc32 else {
            throw ZipError.corruptEntry(entry: entry.name, "CRC-32 is \(Self.hex(UInt32(crc))) but the archive records \(Self.hex(entry.crc32))")
        }
    }

    /// Extracts a small entry into memory; refuses entries larger than `maxSize`.
    public func contents(of entry: ZipEntry, maxSize: Int = 64 << 20) throws(ZipError) -> [UInt8] {
        guard entry.uncompressedSize <= UInt64(maxSize) else {
            throw ZipError.limitExceeded("\"\(entry.name)\" is \(entry.uncompressedSize) bytes, more than the \(maxSize) bytes allowed for this kind of file")
        }
        var out: [UInt8] = []
        out.reserveCapacity(Int(entry.uncompressedSize))
        try extract(entry) { out.append(contentsOf: $0) }
        return out
    }

    /// Reads the local header to find where the data starts; its name must match the central directory's.
    /// Where `entry`'s data starts, once it is known to be readable: not encrypted, stored or
    /// deflated, and its data within the archive.
    func checkedDataOffset(of entry: ZipEntry) throws(ZipError) -> UInt64 {
        guard !entry.isEncrypted else { throw ZipError.unsupported(entry: entry.name, "the entry is encrypted") }
        guard entry.method == 0 || entry.method == 8 else {
            throw ZipError.unsupported(entry: entry.name, "compression method \(entry.method) (\(Self.methodName(entry.method))) is not supported")
        }
        let start = try dataOffset(of: entry)
        guard start <= source.size, entry.compressedSize <= source.size - start else {
            throw ZipError.corruptEntry(entry: entry.name, "its \(entry.compressedSize) bytes of data run past the end of the archive")
        }
        return start
    }

    func dataOffset(of entry: ZipEntry) throws(ZipError) -> UInt64 {
        let header = try source.bytes(at: entry.localHeaderOffset, count: 30)
        guard Self.u32(header, 0) == Self.localHeaderSignature else {
            throw ZipError.corruptEntry(entry: entry.name, "no local header at offset \(entry.localHeaderOffset)")
        }
        let nameLength = Int(Self.u16(header, 26)), extraLength = Int(Self.u16(header, 28))
        let name = try source.bytes(at: entry.localHeaderOffset + 30, count: nameLength)
        guard name.elementsEqual(entry.name.utf8) else {
            throw ZipError.corruptEntry(entry: entry.name, "its local header names it \"\(String(decoding: name, as: UTF8.self))\"")
        }
        return entry.localHeaderOffset + 30 + UInt64(nameLength) + UInt64(extraLength)
    }

    /// Reads `entry.compressedSize` bytes from `start` in chunks, as the archive stores them.
    func copyStored(_ entry: ZipEntry, from start: UInt64, deliver: (UnsafeRawBufferPointer) throws(ZipError) -> Void) throws(ZipError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var offset: UInt64 = 0
        while offset < entry.compressedSize {
            let count = Int(min(UInt64(Self.chunkSize), entry.compressedSize - offset))
            let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[0 ..< count])
            try readSource(at: start + offset, into: slice)
            try deliver(UnsafeRawBufferPointer(slice))
            offset += UInt64(count)
        }
    }

    private func inflate(_ entry: ZipEntry, from start: UInt64, deliver: (UnsafeRawBufferPointer) throws(ZipError) -> Void) throws(ZipError) {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ZipError.readFailed("zlib could not start inflating (out of memory?)")
        }
        defer { inflateEnd(&stream) }
        let input = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        defer { input.deallocate(); output.deallocate() }
        var consumed: UInt64 = 0
        var finished = false
        while !finished {
            if stream.avail_in == 0 && consumed < entry.compressedSize {
                let count = Int(min(UInt64(Self.chunkSize), entry.compressedSize - consumed))
                try readSource(at: start + consumed, into: UnsafeMutableRawBufferPointer(rebasing: input[0 ..< count]))
                consumed += UInt64(count)
                stream.next_in = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.avail_in = uInt(count)
            }
            stream.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(Self.chunkSize)
            let status = CZlib.inflate(&stream, Z_NO_FLUSH)
            switch status {
            case Z_STREAM_END: finished = true
            case Z_OK: break
            case Z_BUF_ERROR:
                // No progress was possible: zlib wants input and all compressed bytes are used.
                throw ZipError.corruptEntry(entry: entry.name, "its deflate stream ends early (all \(entry.compressedSize) compressed bytes used)")
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw ZipError.corruptEntry(entry: entry.name, "its compressed data is invalid (\(message))")
            }
            let produced = Self.chunkSize - Int(stream.avail_out)
            try deliver(UnsafeRawBufferPointer(rebasing: output[0 ..< produced]))
        }
    }

    private func readSource(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(ZipError) {
        do {
            try source.read(at: offset, into: buffer)
        } catch let error as ZipError {
            throw error
        } catch {
            throw ZipError.readFailed("\(error)")
        }
    }

    static func updateCRC(_ crc: uLong, _ chunk: UnsafeRawBufferPointer) -> uLong {
        guard var base = chunk.baseAddress?.assumingMemoryBound(to: Bytef.self) else { return crc }
        var remaining = chunk.count
        var value = crc
        while remaining > 0 {
            let step = min(remaining, Int(UInt32.max))
            value = CZlib.crc32(value, base, uInt(step))
            base += step
            remaining -= step
        }
        return value
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    static func methodName(_ method: UInt16) -> String {
        switch method {
        case 1 ... 6: "legacy shrink/reduce/implode"
        case 9: "deflate64"
        case 12: "bzip2"
        case 14: "LZMA"
        case 93: "Zstandard"
        case 95: "xz"
        case 99: "AES encryption"
        default: "unknown"
        }
    }
}
