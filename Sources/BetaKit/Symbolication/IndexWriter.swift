#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import PosixIO

/// Accumulates index sections in scratch files while compile units stream past, then
/// assembles the final file. Only the sorted lookup tables (sequences and root ranges, one
/// entry per function or line sequence) and the string dictionaries stay in memory.
struct IndexWriter {
    typealias Section = SymbolIndexFormat.Section

    let stem: String
    let strings: SpillFile
    let rowAddresses: SpillFile
    let rowInfo: SpillFile
    let nodes: SpillFile
    let nodeRanges: SpillFile
    let symbols: SpillFile

    private var files: [UInt32] = []
    private var filesByPath: [String: UInt32] = [:]
    private var stringsByKey: [UInt64: UInt32] = [:]
    private var stringsByContent: [String: UInt32] = [:]
    private var sequences: [(low: UInt64, high: UInt64, first: UInt32, count: UInt32)] = []
    private var roots: [(low: UInt64, high: UInt64, node: UInt32)] = []
    private var nodeCount = 0
    private var rangeCount = 0
    private var rowCount = 0

    init(stem: String) throws {
        self.stem = stem
        do {
            strings = try SpillFile(path: stem + ".strings")
            rowAddresses = try SpillFile(path: stem + ".rows")
            rowInfo = try SpillFile(path: stem + ".rowinfo")
            nodes = try SpillFile(path: stem + ".nodes")
            nodeRanges = try SpillFile(path: stem + ".ranges")
            symbols = try SpillFile(path: stem + ".symbols")
        } catch let error as FileSystemError {
            throw SymbolicationError.fileSystem(error)
        }
    }

    /// The offset of `text` in the string section, adding it if new.
    mutating func string(_ text: String) throws -> UInt32 {
        if let found = stringsByContent[text] { return found }
        let offset = try appendString(nil, text: text)
        stringsByContent[text] = offset
        return offset
    }

    /// The offset of a DWARF string in the string section, adding it if new.
    mutating func string(_ ref: DWARFStringRef, sections: DWARFSections) throws -> UInt32 {
        if let found = stringsByKey[ref.key] { return found }
        guard let bytes = sections.bytes(of: ref) else { return SymbolIndexFormat.none }
        let offset = try appendString(bytes, text: nil)
        stringsByKey[ref.key] = offset
        return offset
    }

    private mutating func appendString(_ raw: UnsafeRawBufferPointer?, text: String?) throws -> UInt32 {
        let offset = strings.count
        guard offset < Int(UInt32.max) - 1 << 20 else { throw SymbolicationError.tooLarge(path: stem, what: "string bytes") }
        if let raw {
            try strings.append(bytes: raw)
        } else if let text {
            var copy = text
            try copy.withUTF8 { try strings.append(bytes: UnsafeRawBufferPointer($0)) }
        }
        try strings.append(UInt8(0))
        return UInt32(offset)
    }

    private mutating func file(_ path: String) throws -> UInt32 {
        if let found = filesByPath[path] { return found }
        let id = UInt32(files.count)
        files.append(try string(path))
        filesByPath[path] = id
        return id
    }

    // Marks a file register whose path has not been looked up yet.
    private static let unresolved = UInt32.max - 1

    /// Appends one compile unit's line rows and subroutines.
    mutating func add(_ summary: DWARFUnitSummary, sections: DWARFSections, report: inout SymbolIndexBuildReport) throws {
        // File registers are small integers: a flat table beats hashing for millions of rows.
        var unitFiles = [UInt32](repeating: Self.unresolved, count: Swift.min((summary.lineTable?.files.count ?? 0) + 2, 1 << 16))
        var overflowFiles: [UInt64: UInt32] = [:]
        func fileID(_ index: UInt64) throws -> UInt32 {
            if index < UInt64(unitFiles.count), unitFiles[Int(index)] != Self.unresolved { return unitFiles[Int(index)] }
            if let found = overflowFiles[index] { return found }
            let id = try summary.path(ofFile: index, sections: sections).map { try file($0) } ?? SymbolIndexFormat.none
            if index < UInt64(unitFiles.count) { unitFiles[Int(index)] = id } else { overflowFiles[index] = id }
            return id
        }
        if let table = summary.lineTable {
            var addresses: [UInt32] = [], infos: [UInt32] = []
            addresses.reserveCapacity(table.rows.count)
            infos.reserveCapacity(table.rows.count * 3)
            for sequence in table.sequences {
                let rows = table.rows[sequence]
                guard let first = rows.first, let last = rows.last, last.address &- first.address < UInt64(UInt32.max) else {
                    report.warnings.append("a line sequence at 0x\(String(table.rows[sequence.lowerBound].address, radix: 16)) spans more than 4 GiB; skipped")
                    continue
                }
                let start = addresses.count
                var previous: (file: UInt32, line: UInt32, column: UInt32)?
                for row in rows {
                    let column = UInt32(Swift.min(row.column, UInt32(UInt16.max)))
                    if row.isEndSequence {
                        addresses.append(UInt32(truncatingIfNeeded: row.address &- first.address).littleEndian)
                        infos += [SymbolIndexFormat.none.littleEndian, row.line.littleEndian, (column | UInt32(SymbolIndexFormat.endSequenceFlag) << 16).littleEndian]
                        continue
                    }
                    let file = try fileID(row.file)
                    if let previous, previous.file == file, previous.line == row.line, previous.column == column { continue }
                    previous = (file, row.line, column)
                    addresses.append(UInt32(truncatingIfNeeded: row.address &- first.address).littleEndian)
                    infos += [file.littleEndian, row.line.littleEndian, column.littleEndian]
                }
                guard rowCount + addresses.count < Int(UInt32.max) else { throw SymbolicationError.tooLarge(path: stem, what: "line rows") }
                sequences.append((first.address, last.address, UInt32(rowCount + start), UInt32(addresses.count - start)))
            }
            try rowAddresses.append(littleEndian: addresses)
            try rowInfo.append(littleEndian: infos)
            rowCount += addresses.count
            report.rows += addresses.count
        }
        let base = nodeCount, rangeBase = rangeCount
        guard base + summary.subroutines.count < Int(Int32.max), rangeBase + summary.ranges.count < Int(UInt32.max) else {
            throw SymbolicationError.tooLarge(path: stem, what: "subroutines")
        }
        var records: [UInt32] = []
        records.reserveCapacity(summary.subroutines.count * 8)
        for node in summary.subroutines {
            let name = try node.name.map { try string($0, sections: sections) } ?? SymbolIndexFormat.none
            let isTop = node.parent < 0 || summary.subroutines[node.parent].rangeCount == 0
            records += [name.littleEndian, UInt32(bitPattern: Int32(node.parent < 0 ? -1 : base + node.parent)).littleEndian,
                        UInt32(base + node.subtreeEnd).littleEndian, UInt32(rangeBase + node.rangeStart).littleEndian,
                        UInt32(node.rangeCount).littleEndian, (node.isInlined ? try fileID(node.callFile) : SymbolIndexFormat.none).littleEndian,
                        UInt32(clamping: node.callLine).littleEndian, UInt32(clamping: node.callColumn).littleEndian]
            if isTop {
                let index = UInt32(nodeCount)
                for range in summary.ranges[node.rangeStart ..< node.rangeStart + node.rangeCount] {
                    roots.append((range.low, range.high, index))
                }
            }
            nodeCount += 1
        }
        try nodes.append(littleEndian: records)
        try nodeRanges.append(littleEndian: summary.ranges.flatMap { [$0.low.littleEndian, $0.high.littleEndian] })
        rangeCount += summary.ranges.count
        report.subroutines += summary.subroutines.count
    }

    /// Sorts the lookup tables and writes the index to `destination` via a temporary file.
    mutating func finish(to destination: String, uuid: UUID, architecture: MachOArchitecture, textAddress: UInt64, sourceSize: UInt64,
                         source: SymbolSource?, problems: Int) throws {
        // Added before the string section is copied out.
        let sourcePath = try source.map { try string($0.path) } ?? SymbolIndexFormat.none
        let temporary = stem + ".index"
        let fd: FileDescriptor
        do { fd = try FileDescriptor.createNew(temporary) } catch { throw SymbolicationError.fileSystem(error) }
        var closed = false
        defer {
            if !closed { try? fd.close() }
            _ = try? FileSystem.removeFile(temporary)
        }
        do {
            let filesSpill = try SpillFile(path: stem + ".files")
            for file in files { try filesSpill.append(file) }
            let sequenceSpill = try SpillFile(path: stem + ".sequences")
            sequences.sort { ($0.low, $0.first) < ($1.low, $1.first) }
            var maxHigh: UInt64 = 0
            for s in sequences {
                maxHigh = Swift.max(maxHigh, s.high)
                try sequenceSpill.append(s.low); try sequenceSpill.append(s.high); try sequenceSpill.append(maxHigh)
                try sequenceSpill.append(s.first); try sequenceSpill.append(s.count)
            }
            let rootSpill = try SpillFile(path: stem + ".roots")
            roots.sort { ($0.low, $0.node) < ($1.low, $1.node) }
            maxHigh = 0
            for r in roots {
                maxHigh = Swift.max(maxHigh, r.high)
                try rootSpill.append(r.low); try rootSpill.append(r.high); try rootSpill.append(maxHigh)
                try rootSpill.append(r.node); try rootSpill.append(UInt32(0))
            }
            let ordered: [(Section, SpillFile)] = [
                (.strings, strings), (.files, filesSpill), (.rowAddresses, rowAddresses), (.rowInfo, rowInfo),
                (.sequences, sequenceSpill), (.nodes, nodes), (.nodeRanges, nodeRanges), (.roots, rootSpill), (.symbols, symbols),
            ]
            let directorySize = ordered.count * SymbolIndexFormat.directoryEntrySize
            var position = SymbolIndexFormat.headerSize + directorySize
            var directory: [(Section, Int, Int)] = []
            let zeros = [UInt8](repeating: 0, count: position)
            try zeros.withUnsafeBytes { try SpillFile.writeAll(fd, $0, path: temporary) }
            for (kind, spill) in ordered {
                let padding = (8 - position % 8) % 8
                if padding > 0 {
                    try [UInt8](repeating: 0, count: padding).withUnsafeBytes { try SpillFile.writeAll(fd, $0, path: temporary) }
                    position += padding
                }
                try spill.copy(to: fd, destinationPath: temporary)
                directory.append((kind, position, spill.count))
                position += spill.count
            }
            var head = [UInt8](repeating: 0, count: SymbolIndexFormat.headerSize + directorySize)
            head.withUnsafeMutableBytes { raw in
                func put<T: FixedWidthInteger>(_ value: T, at offset: Int) {
                    raw.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
                }
                for (i, byte) in SymbolIndexFormat.magic.enumerated() { raw[i] = byte }
                put(SymbolIndexFormat.version, at: SymbolIndexFormat.versionOffset)
                put(UInt32(SymbolIndexFormat.headerSize), at: SymbolIndexFormat.headerSizeOffset)
                withUnsafeBytes(of: uuid.uuid) { for (i, byte) in $0.enumerated() { raw[SymbolIndexFormat.uuidOffset + i] = byte } }
                put(architecture.cpuType, at: SymbolIndexFormat.cpuTypeOffset)
                put(architecture.cpuSubtype, at: SymbolIndexFormat.cpuSubtypeOffset)
                put(textAddress, at: SymbolIndexFormat.textAddressOffset)
                put(sourceSize, at: SymbolIndexFormat.sourceSizeOffset)
                put(UInt32(directory.count), at: SymbolIndexFormat.sectionCountOffset)
                var flags: UInt32 = problems > 0 ? SymbolIndexFormat.Flag.damagedDebugInfo : 0
                put(UInt32(clamping: problems), at: SymbolIndexFormat.problemCountOffset)
                if let source {
                    flags |= SymbolIndexFormat.Flag.hasSource
                    put(sourcePath, at: SymbolIndexFormat.sourcePathOffset)
                    put(source.size, at: SymbolIndexFormat.sourceFileSizeOffset)
                    put(source.modifiedSeconds, at: SymbolIndexFormat.sourceModifiedSecondsOffset)
                    put(source.modifiedNanoseconds, at: SymbolIndexFormat.sourceModifiedNanosecondsOffset)
                    put(source.inode, at: SymbolIndexFormat.sourceInodeOffset)
                    put(source.device, at: SymbolIndexFormat.sourceDeviceOffset)
                }
                put(flags, at: SymbolIndexFormat.flagsOffset)
                for (i, (kind, offset, length)) in directory.enumerated() {
                    let entry = SymbolIndexFormat.headerSize + i * SymbolIndexFormat.directoryEntrySize
                    put(kind.rawValue, at: entry)
                    put(UInt64(offset), at: entry + 8)
                    put(UInt64(length), at: entry + 16)
                }
                put(SymbolIndexFormat.checksum(UnsafeRawBufferPointer(raw)), at: SymbolIndexFormat.checksumOffset)
            }
            try head.withUnsafeBytes { raw in
                Result { () throws(SystemCallError) in try fd.writeAll(raw, at: 0) }
            }.mapError { FileSystemError($0, operation: "write") }.get()
            closed = true
            do { try fd.close() } catch { throw FileSystemError(error, operation: "close") }
            do { try FileSystem.rename(temporary, to: destination) } catch {
                throw FileSystemError(operation: "rename", path: destination, errno: error.errno)
            }
        } catch let error as FileSystemError {
            throw SymbolicationError.fileSystem(error)
        }
    }
}
