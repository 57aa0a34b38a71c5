#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// One source location an address maps to. A lookup returns several when code was inlined:
/// the innermost inlined function first, the real (outermost) function last.
public struct SymbolicatedLocation: Sendable, Equatable, Codable {
    /// The function's raw name: a linkage (mangled) name when DWARF has one, else the plain
    /// name or the symbol-table name without its leading underscore. Nil when unknown.
    public var function: String?
    /// The source file's path as the compiler recorded it, or nil when unknown.
    public var file: String?
    /// The source line; 0 when the compiler attributed the code to no line.
    public var line: Int
    /// The source column; 0 when unknown.
    public var column: Int
    /// Whether this function was inlined into the next location's function.
    public var isInlined: Bool
    /// How far the address is past the start of the symbol-table entry that names the
    /// function (outermost location only), for "symbol + offset" renderings.
    public var symbolOffset: UInt64?

    /// Creates a location.
    public init(function: String?, file: String?, line: Int, column: Int, isInlined: Bool, symbolOffset: UInt64? = nil) {
        self.function = function
        self.file = file
        self.line = line
        self.column = column
        self.isInlined = isInlined
        self.symbolOffset = symbolOffset
    }
}

/// A location as the index stores it: names as offsets into its string table
/// (`SymbolIndexFormat.none` when unknown), so repeated names are read once.
struct RawLocation: Equatable {
    var function: UInt32
    var file: UInt32
    var line: Int
    var column: Int
    var isInlined: Bool
    var symbolOffset: UInt64?
}

/// A memory-mapped symbol index for one image (one UUID).
///
/// Opening validates the header and section bounds only, so it costs a few system calls
/// whatever the dSYM's size; each lookup is a handful of binary searches over the mapping.
/// Damage found during a lookup throws `SymbolicationError.corruptIndex` rather than trapping.
public final class SymbolIndex: Sendable {
    /// The index file.
    public let path: String
    /// The image's UUID.
    public let uuid: UUID
    /// The image's architecture.
    public let architecture: MachOArchitecture
    /// The image's `__TEXT` address: crash reports give offsets from the image start, which maps here.
    public let textAddress: UInt64
    /// The size of the indexed slice, recorded when the index was built.
    public let sourceSize: UInt64
    /// The file the index was built from, as it was then (nil if the builder could not tell).
    public let source: SymbolSource?
    /// How many parts of the debug information the build could not read and skipped; 0 for an
    /// index built from intact DWARF.
    public let problemCount: Int
    /// Whether the build skipped damaged debug information, so that another copy of the same
    /// image may give a better index.
    public var isBuiltFromDamagedDebugInfo: Bool { problemCount > 0 }

    let file: MappedFile
    let tables: [Table]

    struct Table: Sendable {
        var offset: Int
        var count: Int
    }

    /// Maps and validates the index at `path`.
    public init(path: String) throws(SymbolicationError) {
        self.path = path
        do { file = try MappedFile(path: path) } catch { throw SymbolicationError.fileSystem(error) }
        let bytes = file.bytes
        func corrupt(_ reason: String) -> SymbolicationError { .corruptIndex(path: path, reason: reason) }
        guard bytes.count >= SymbolIndexFormat.headerSize else { throw corrupt("it is only \(bytes.count) byte\(bytes.count == 1 ? "" : "s") long") }
        guard Array(bytes[0 ..< 8]) == SymbolIndexFormat.magic else { throw corrupt("it does not start with the index signature") }
        func read<T: FixedWidthInteger>(_: T.Type, _ offset: Int) -> T {
            T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
        }
        let version = read(UInt32.self, SymbolIndexFormat.versionOffset)
        guard version == SymbolIndexFormat.version else { throw corrupt("format version \(version), expected \(SymbolIndexFormat.version)") }
        guard read(UInt32.self, SymbolIndexFormat.headerSizeOffset) == UInt32(SymbolIndexFormat.headerSize) else { throw corrupt("unexpected header size") }
        let sectionCount = Int(read(UInt32.self, SymbolIndexFormat.sectionCountOffset))
        let directoryEnd = SymbolIndexFormat.headerSize + sectionCount * SymbolIndexFormat.directoryEntrySize
        guard sectionCount <= 64, directoryEnd <= bytes.count else { throw corrupt("the section directory runs past the end") }
        var head = Array(bytes[0 ..< directoryEnd])
        for i in 0 ..< 8 { head[SymbolIndexFormat.checksumOffset + i] = 0 }
        let checksum = head.withUnsafeBytes { SymbolIndexFormat.checksum($0) }
        guard checksum == read(UInt64.self, SymbolIndexFormat.checksumOffset) else { throw corrupt("the header checksum does not match") }

        var tables = [Table](repeating: Table(offset: 0, count: 0), count: SymbolIndexFormat.Section.allCases.count + 1)
        for i in 0 ..< sectionCount {
            let entry = SymbolIndexFormat.headerSize + i * SymbolIndexFormat.directoryEntrySize
            let kind = read(UInt32.self, entry), offset = read(UInt64.self, entry + 8), length = read(UInt64.self, entry + 16)
            guard let section = SymbolIndexFormat.Section(rawValue: kind) else { continue }
            guard offset % 8 == 0, offset <= UInt64(bytes.count), length <= UInt64(bytes.count) - offset,
                  Int(length) % section.recordSize == 0 else {
                throw corrupt("section \(kind) at \(offset) (\(length) bytes) lies outside the file")
            }
            tables[Int(kind)] = Table(offset: Int(offset), count: Int(length) / section.recordSize)
        }
        guard tables[Int(SymbolIndexFormat.Section.rowAddresses.rawValue)].count == tables[Int(SymbolIndexFormat.Section.rowInfo.rawValue)].count else {
            throw corrupt("row tables differ in length")
        }
        self.tables = tables
        let raw = Array(bytes[SymbolIndexFormat.uuidOffset ..< SymbolIndexFormat.uuidOffset + 16])
        uuid = UUID(uuid: (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                           raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]))
        architecture = MachOArchitecture(cpuType: read(Int32.self, SymbolIndexFormat.cpuTypeOffset),
                                         cpuSubtype: read(Int32.self, SymbolIndexFormat.cpuSubtypeOffset))
        textAddress = read(UInt64.self, SymbolIndexFormat.textAddressOffset)
        sourceSize = read(UInt64.self, SymbolIndexFormat.sourceSizeOffset)
        let flags = read(UInt32.self, SymbolIndexFormat.flagsOffset)
        let problems = Int(read(UInt32.self, SymbolIndexFormat.problemCountOffset))
        // A damaged flag without a count still counts as damaged.
        problemCount = flags & SymbolIndexFormat.Flag.damagedDebugInfo != 0 ? Swift.max(1, problems) : 0
        if flags & SymbolIndexFormat.Flag.hasSource != 0 {
            let sourcePath = read(UInt32.self, SymbolIndexFormat.sourcePathOffset)
            let strings = tables[Int(SymbolIndexFormat.Section.strings.rawValue)]
            guard let pathText = Self.string(at: sourcePath, in: bytes, table: strings) else { throw corrupt("the source path lies outside the string table") }
            source = SymbolSource(path: pathText, size: read(UInt64.self, SymbolIndexFormat.sourceFileSizeOffset),
                                  modifiedSeconds: read(Int64.self, SymbolIndexFormat.sourceModifiedSecondsOffset),
                                  modifiedNanoseconds: read(Int64.self, SymbolIndexFormat.sourceModifiedNanosecondsOffset),
                                  inode: read(UInt64.self, SymbolIndexFormat.sourceInodeOffset),
                                  device: read(UInt64.self, SymbolIndexFormat.sourceDeviceOffset))
        } else {
            source = nil
        }
    }

    /// The NUL-terminated string at `offset` of the string table, or nil when it does not end inside it.
    private static func string(at offset: UInt32, in bytes: UnsafeRawBufferPointer, table: Table) -> String? {
        guard Int(offset) < table.count else { return nil }
        let start = table.offset + Int(offset), end = table.offset + table.count
        guard let terminator = bytes[start ..< end].firstIndex(of: 0) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start ..< terminator]), as: UTF8.self)
    }

    /// The locations for `address` in the image's own address space, innermost inlined function
    /// first, in the same way llvm-symbolizer answers: the innermost frame takes its file and line
    /// from the line table, each outer frame from the call site recorded for the frame inside it,
    /// and the outermost frame's name comes from the symbol table when it covers the address.
    /// Empty when nothing is known about the address.
    public func lookup(address: UInt64) throws(SymbolicationError) -> [SymbolicatedLocation] {
        var result: [SymbolicatedLocation] = []
        for raw in try rawLookup(address: address) {
            result.append(SymbolicatedLocation(function: try string(at: raw.function), file: try string(at: raw.file), line: raw.line,
                                               column: raw.column, isInlined: raw.isInlined, symbolOffset: raw.symbolOffset))
        }
        return result
    }

    /// `lookup(address:)` with names left as string-table offsets.
    func rawLookup(address: UInt64) throws(SymbolicationError) -> [RawLocation] {
        try withExtendedLifetime(file) { () throws(SymbolicationError) -> [RawLocation] in
            var reader = Reader(index: self, bytes: file.bytes)
            return try reader.lookup(address)
        }
    }

    /// The string at `offset` in the string table (nil for `SymbolIndexFormat.none`).
    func string(at offset: UInt32) throws(SymbolicationError) -> String? {
        try withExtendedLifetime(file) { () throws(SymbolicationError) -> String? in
            try Reader(index: self, bytes: file.bytes).string(at: offset)
        }
    }
}
