extension ZipArchive {
    /// Streams the data of `entry` as the archive stores it (still deflated when it is), in chunks,
    /// without inflating it: for copying an entry into another archive unchanged.
    ///
    /// Only the bounds are checked here; the CRC-32 is checked when the entry is extracted.
    public func rawData(of entry: ZipEntry, to sink: (UnsafeRawBufferPointer) throws -> Void) throws(ZipError) {
        let start = try checkedDataOffset(of: entry)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var offset: UInt64 = 0
        while offset < entry.compressedSize {
            let count = Int(min(UInt64(Self.chunkSize), entry.compressedSize - offset))
            let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[0 ..< count])
            do {
                try source.read(at: start + offset, into: slice)
            } catch let error as ZipError {
                throw error
            } catch {
                throw ZipError.readFailed("\(error)")
            }
            do { try sink(UnsafeRawBufferPointer(slice)) } catch let error as ZipError { throw error } catch { throw ZipError.sinkFailed("\(error)") }
            offset += UInt64(count)
        }
    }
}

extension ZipEntry {
    /// The Unix mode the entry records (type and permissions), or nil when the archive was not
    /// made on Unix or records none.
    public var unixMode: UInt32? {
        madeByHost == 3 && externalAttributes >> 16 != 0 ? externalAttributes >> 16 : nil
    }
}
