/// A zip archive read through its central directory.
///
/// Opening validates the whole directory up front (names, limits, overlaps), so
/// a hostile archive is refused before a single byte is extracted.
public struct ZipArchive: Sendable {
    /// The entries in central-directory order.
    public let entries: [ZipEntry]
    /// The limits this archive was checked against, also enforced while extracting.
    public let limits: ZipLimits
    let source: any ZipByteSource
    private let index: [String: Int]

    static let endOfCentralDirectorySignature: UInt32 = 0x0605_4b50
    static let zip64LocatorSignature: UInt32 = 0x0706_4b50
    static let zip64EndSignature: UInt32 = 0x0606_4b50
    static let centralHeaderSignature: UInt32 = 0x0201_4b50
    static let localHeaderSignature: UInt32 = 0x0403_4b50

    /// Reads and validates the central directory of the archive in `source`.
    public init(source: any ZipByteSource, limits: ZipLimits = ZipLimits()) throws(ZipError) {
        self.source = source
        self.limits = limits
        let directory = try Self.locateCentralDirectory(source)
        guard directory.count <= UInt64(limits.maxEntries) else {
            throw ZipError.limitExceeded("it has \(directory.count) entries, more than the limit of \(limits.maxEntries)")
        }
        guard directory.offset <= source.size, directory.size <= source.size - directory.offset,
              directory.size <= UInt64(Int32.max) else {
            throw ZipError.malformed("the central directory (\(directory.size) bytes at \(directory.offset)) lies outside the \(source.size)-byte file")
        }
        let raw = try source.bytes(at: directory.offset, count: Int(directory.size))
        let entries = try Self.parseCentralDirectory(raw, expectedCount: Int(directory.count), archiveSize: source.size)
        try Self.validate(entries, limits: limits, centralDirectoryOffset: directory.offset)
        self.entries = entries
        var index: [String: Int] = [:]
        for (position, entry) in entries.enumerated() where index[entry.name] == nil { index[entry.name] = position }
        self.index = index
    }

    /// The entry named exactly `name`.
    public func entry(named name: String) -> ZipEntry? {
        index[name].map { entries[$0] }
    }

    struct DirectoryLocation {
        var offset: UInt64
        var size: UInt64
        var count: UInt64
    }

    private static func locateCentralDirectory(_ source: any ZipByteSource) throws(ZipError) -> DirectoryLocation {
        guard source.size >= 22 else {
            throw ZipError.notZip("the file is only \(source.size) bytes long")
        }
        // The record is 22 bytes plus a comment of up to 65535 bytes at the very end.
        let tailLength = Int(min(source.size, 22 + 65535))
        let tailStart = source.size - UInt64(tailLength)
        let tail = try source.bytes(at: tailStart, count: tailLength)
        var found: Int?
        var position = tailLength - 22
        while position >= 0 {
            if tail[position] == 0x50 && tail[position + 1] == 0x4b && tail[position + 2] == 5 && tail[position + 3] == 6 {
                let commentLength = Int(tail[position + 20]) | Int(tail[position + 21]) << 8
                if position + 22 + commentLength == tailLength { found = position; break }
            }
            position -= 1
        }
        guard let end = found else {
            let starts = tail.count >= 4 && tail[0] == 0x50 && tail[1] == 0x4b
            throw ZipError.notZip(starts && tailStart == 0
                ? "it starts like a zip but has no end-of-central-directory record, so it was cut short"
                : "no end-of-central-directory record was found")
        }
        var location = DirectoryLocation(offset: 0, size: 0, count: 0)
        var needsZip64 = false
        tail.withUnsafeBytes { raw in
            var r = ByteReader(raw, offset: end + 4)
            let disk = (try? r.u16le()) ?? 0, directoryDisk = (try? r.u16le()) ?? 0
            _ = try? r.u16le()
            let count = (try? r.u16le()) ?? 0
            let size = (try? r.u32le()) ?? 0, offset = (try? r.u32le()) ?? 0
            location = DirectoryLocation(offset: UInt64(offset), size: UInt64(size), count: UInt64(count))
            needsZip64 = count == 0xffff || size == 0xffff_ffff || offset == 0xffff_ffff || disk == 0xffff || directoryDisk == 0xffff
            if disk != 0 || directoryDisk != 0, !needsZip64 { location.count = UInt64.max }
        }
        if location.count == UInt64.max {
            throw ZipError.unsupported(entry: "(archive)", "multi-part (spanned) zip archives are not supported")
        }
        let endAbsolute = tailStart + UInt64(end)
        guard needsZip64 || endAbsolute >= 20 else { return location }
        // A zip64 locator sits just before the classic record; use it even when not strictly needed.
        if endAbsolute >= 20, let locator = try? source.bytes(at: endAbsolute - 20, count: 20),
           Self.u32(locator, 0) == zip64LocatorSignature {
            let recordOffset = Self.u64(locator, 8)
            let record = try source.bytes(at: recordOffset, count: 56)
            guard Self.u32(record, 0) == zip64EndSignature else {
                throw ZipError.malformed("the zip64 locator points to offset \(recordOffset), where there is no zip64 end record")
            }
            return DirectoryLocation(offset: Self.u64(record, 48), size: Self.u64(record, 40), count: Self.u64(record, 32))
        }
        if needsZip64 {
            throw ZipError.malformed("the end record uses zip64 markers but there is no zip64 locator")
        }
        return location
    }

    static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
    static func u64(_ bytes: [UInt8], _ at: Int) -> UInt64 { UInt64(u32(bytes, at)) | UInt64(u32(bytes, at + 4)) << 32 }
}
