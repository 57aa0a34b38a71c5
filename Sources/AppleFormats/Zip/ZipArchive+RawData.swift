extension ZipArchive {
    /// Streams the data of `entry` as the archive stores it (still deflated when it is), in chunks,
    /// without inflating it: for copying an entry into another archive unchanged.
    ///
    /// Only the bounds are checked here; the CRC-32 is checked when the entry is extracted.
    public func rawData(of entry: ZipEntry, to sink: (UnsafeRawBufferPointer) throws -> Void) throws(ZipError) {
        // The stored bytes as they are: what extraction reads for a stored entry, whatever the method.
        try copyStored(entry, from: try checkedDataOffset(of: entry)) { (chunk) throws(ZipError) in
            do { try sink(chunk) } catch let error as ZipError { throw error } catch { throw ZipError.sinkFailed("\(error)") }
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
