#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import PosixIO

/// How far an index build has got, for progress bars.
public struct SymbolIndexProgress: Sendable, Equatable {
    /// Bytes of `__debug_info` processed so far.
    public var completedBytes: Int
    /// Total bytes of `__debug_info`.
    public var totalBytes: Int

    /// Completion between 0 and 1.
    public var fraction: Double { totalBytes == 0 ? 1 : Double(completedBytes) / Double(totalBytes) }
}

/// What an index build found, and what it had to skip.
public struct SymbolIndexBuildReport: Sendable {
    /// Compile units read.
    public var units = 0
    /// Subroutines (functions and inlined calls) indexed.
    public var subroutines = 0
    /// Line-table rows indexed.
    public var rows = 0
    /// Symbol-table entries indexed.
    public var symbols = 0
    /// Damage that was skipped; the index holds everything else.
    public var warnings: [String] = []
}

/// Builds a symbol index from one slice of a dSYM (or any Mach-O file with DWARF or a symbol
/// table), streaming through compile units so memory stays flat for huge dSYMs.
struct SymbolIndexBuilder {
    let source: SymbolFile
    let destination: String
    let progress: (@Sendable (SymbolIndexProgress) -> Void)?

    // Report progress at most this often (in bytes of __debug_info).
    static let progressStep = 1 << 20

    /// Reads `source` and writes the index to `destination` atomically (temporary file, then rename).
    /// Checks for task cancellation between compile units.
    func build() throws -> SymbolIndexBuildReport {
        let mapped: MappedFile
        do { mapped = try MappedFile(path: source.path) } catch { throw SymbolicationError.fileSystem(error) }
        // The file that was mapped, as it was then: the index records it, so the cache can tell
        // this file from other copies of the image and notice when it changes.
        let identity = SymbolSource(path: source.path, status: mapped.status)
        return try mapped.withBytes { bytes in try build(bytes: bytes, identity: identity) }
    }

    private func build(bytes: UnsafeRawBufferPointer, identity: SymbolSource) throws -> SymbolIndexBuildReport {
        let file: MachOFile
        do { file = try MachOFile(bytes: bytes) } catch { throw SymbolicationError.unreadable(path: source.path, reason: error.description) }
        guard let (slice, image) = Self.slice(of: source, in: file, bytes: bytes) else {
            throw SymbolicationError.uuidNotInFile(uuid: "\(source.uuid.uuidString) (\(source.architecture.name))", path: source.path,
                                                   available: Self.available(in: file, bytes: bytes))
        }
        let slash = destination.lastIndex(of: "/")
        let directory = slash.map { String(destination[..<$0]) } ?? "."
        let name = slash.map { String(destination[destination.index(after: $0)...]) } ?? destination
        let stem = "\(directory)/.\(name).\(CurrentProcess.id).\(UInt32.random(in: 0 ... .max))"
        var writer = try IndexWriter(stem: stem)
        var report = SymbolIndexBuildReport()

        try writeSymbols(image: image, slice: slice, writer: &writer, report: &report)
        let sections = DWARFSections(image: image, bytes: slice)
        if sections.hasDebugInfo {
            try writeDWARF(sections: sections, writer: &writer, report: &report)
        }
        try writer.finish(to: destination, uuid: source.uuid, architecture: image.architecture,
                          textAddress: image.segment(named: "__TEXT")?.vmAddress ?? 0, sourceSize: UInt64(slice.count),
                          source: identity, problems: report.warnings.count)
        return report
    }

    /// The slice holding `source`'s image: the UUID and the architecture must both match, since a
    /// fat file may hold several slices (and a damaged or hand-made one several with one UUID).
    /// An architecture recorded by name (the archive stores "arm64") matches a slice of a subtype
    /// with that name when no slice matches exactly.
    static func slice(of source: SymbolFile, in file: MachOFile, bytes: UnsafeRawBufferPointer)
        -> (bytes: UnsafeRawBufferPointer, image: MachOImage)? {
        var byName: (bytes: UnsafeRawBufferPointer, image: MachOImage)?
        for slice in file.slices {
            let sliceBytes = MachOFile.bytes(of: slice, in: bytes)
            guard let image = try? MachOImage(bytes: sliceBytes), image.uuid == source.uuid else { continue }
            if image.architecture == source.architecture { return (sliceBytes, image) }
            if byName == nil, image.architecture.name == source.architecture.name { byName = (sliceBytes, image) }
        }
        return byName
    }

    /// "UUID (arch)" of every slice, for error messages.
    static func available(in file: MachOFile, bytes: UnsafeRawBufferPointer) -> [String] {
        file.slices.compactMap { slice in
            guard let image = try? MachOImage(bytes: MachOFile.bytes(of: slice, in: bytes)), let uuid = image.uuid else { return nil }
            return "\(uuid.uuidString) (\(image.architecture.name))"
        }
    }

    private func writeSymbols(image: MachOImage, slice: UnsafeRawBufferPointer, writer: inout IndexWriter, report: inout SymbolIndexBuildReport) throws {
        let symbols: [MachOSymbol]
        do { symbols = try image.definedSymbols(in: slice, codeOnly: true) } catch {
            report.warnings.append("symbol table: \(error)")
            return
        }
        let sections = image.sectionsInSymbolOrder
        // A symbol spans up to the next symbol at a higher address in its section, or the section end
        // (how llvm-symbolizer sizes Mach-O symbols); among symbols sharing an address the last wins.
        var bySection: [UInt8: [MachOSymbol]] = [:]
        for symbol in symbols { bySection[symbol.sectionNumber, default: []].append(symbol) }
        var entries: [(address: UInt64, end: UInt64, name: String)] = []
        for (number, list) in bySection {
            let section = Int(number) <= sections.count ? sections[Int(number) - 1] : nil
            let sectionEnd = section.map { $0.address &+ $0.size } ?? 0
            var index = 0
            while index < list.count {
                var last = index
                while last + 1 < list.count && list[last + 1].address == list[index].address { last += 1 }
                let end = last + 1 < list.count ? list[last + 1].address : Swift.max(sectionEnd, list[index].address)
                var name = list[last].name
                if name.hasPrefix("_") { name.removeFirst() }  // C symbols carry a leading underscore in Mach-O
                entries.append((list[index].address, end, name))
                index = last + 1
            }
        }
        entries.sort { $0.address < $1.address }
        var records: [UInt64] = []
        records.reserveCapacity(entries.count * 3)
        for entry in entries {
            let name = try writer.string(entry.name)
            records += [entry.address.littleEndian, entry.end.littleEndian, UInt64(name).littleEndian]
        }
        try writer.symbols.append(littleEndian: records)
        report.symbols = entries.count
    }

    private func writeDWARF(sections: DWARFSections, writer: inout IndexWriter, report: inout SymbolIndexBuildReport) throws {
        let context = DWARFContext(sections: sections)
        if let error = context.unitHeaderError { report.warnings.append(error.description) }
        var nextProgress = 0
        let total = sections.info.count
        var infoReleaser = PageReleaser(sections.info), lineReleaser = PageReleaser(sections.line)
        for index in context.unitHeaders.indices {
            if Task.isCancelled { throw CancellationError() }
            let header = context.unitHeaders[index]
            // Units are read in order, so pages behind the current one can go back to the file
            // (a later lookup just reads them again): resident memory stays flat for huge dSYMs.
            infoReleaser.release(below: header.offset)
            if let progress, header.offset >= nextProgress {
                progress(SymbolIndexProgress(completedBytes: header.offset, totalBytes: total))
                nextProgress = header.offset + Self.progressStep
            }
            let summary: DWARFUnitSummary
            do { summary = try context.summary(ofUnitAt: index) } catch {
                report.warnings.append(error.description)
                continue
            }
            report.warnings += summary.errors.map(\.description)
            report.units += 1
            if let lineOffset = summary.unit.lineTableOffset { lineReleaser.release(below: lineOffset) }
            try writer.add(summary, sections: sections, report: &report)
        }
        progress?(SymbolIndexProgress(completedBytes: total, totalBytes: total))
    }
}

/// Hands the pages of a memory-mapped section back to the kernel once they have been read.
struct PageReleaser {
    let section: UnsafeRawBufferPointer
    var released = 0
    // Release in large steps: each call is a system call.
    static let step = 16 << 20
    static let pageSize = MemoryMapping.pageSize

    init(_ section: UnsafeRawBufferPointer) { self.section = section }

    mutating func release(below offset: Int) {
        guard offset - released >= Self.step, offset <= section.count, let base = section.baseAddress, Self.pageSize > 0 else { return }
        let start = (Int(bitPattern: base) + released + Self.pageSize - 1) / Self.pageSize * Self.pageSize
        let end = (Int(bitPattern: base) + offset) / Self.pageSize * Self.pageSize
        if end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) {
            MemoryMapping.dropPages(at: pointer, count: end - start)
        }
        released = offset
    }
}
