import Foundation
import Testing
@testable import AppleFormats
import TestSupport

/// Truncations and bit flips of every DWARF fixture: each must give a typed error or a partial
/// result that keeps its invariants, never a trap or a hang.
@Suite struct DWARFRobustnessTests {
    static let generated = [
        "symbols/arm64-dwarf4/App.dSYM/Contents/Resources/DWARF/App",
        "symbols/arm64-dwarf5/App.dSYM/Contents/Resources/DWARF/App",
        "symbols/fat/Fat.dSYM/Contents/Resources/DWARF/Fat",
    ]
    // One real dSYM (32-bit, Apple toolchain) keeps the sweep quick; the generated ones cover the rest.
    static let real = ["crash/crashprobe/armv7-CrashProbeiOS.app.dSYM/Contents/Resources/DWARF/CrashProbeiOS"]

    /// What one pass over a (damaged) file produced: what was read, and the typed errors met.
    struct Tally {
        var subroutines = 0
        var rows = 0
        /// Mach-O errors (header, load commands, symbol table) and DWARF errors (thrown, or
        /// recorded in a partial summary).
        var errors = 0
    }

    /// Reads everything the symbolicator reads. Every step gives a result that keeps the
    /// invariants the index builder relies on, or a typed error (`MachOError`, `DWARFError`)
    /// that is a sentence naming a fix.
    @discardableResult
    static func exercise(_ bytes: UnsafeRawBufferPointer, sourceLocation: SourceLocation = #_sourceLocation) -> Tally {
        var tally = Tally()
        func failed(_ error: some Error & CustomStringConvertible) {
            tally.errors += 1
            #expect(error.description.contains("; "), "not a sentence with a fix: \(error)", sourceLocation: sourceLocation)
        }
        let file: MachOFile
        do { file = try MachOFile(bytes: bytes) } catch {
            failed(error)
            return tally
        }
        for slice in file.slices {
            let sliceBytes = MachOFile.bytes(of: slice, in: bytes)
            let image: MachOImage
            do { image = try MachOImage(bytes: sliceBytes) } catch {
                failed(error)
                continue
            }
            do { _ = try image.definedSymbols(in: sliceBytes, codeOnly: true) } catch { failed(error) }
            let sections = DWARFSections(image: image, bytes: sliceBytes)
            let context = DWARFContext(sections: sections)
            if let error = context.unitHeaderError { failed(error) }
            for index in context.unitHeaders.indices {
                let summary: DWARFUnitSummary
                do { summary = try context.summary(ofUnitAt: index) } catch {
                    failed(error)
                    continue
                }
                for error in summary.errors { failed(error) }
                checkInvariants(summary, sourceLocation: sourceLocation)
                tally.subroutines += summary.subroutines.count
                for node in summary.subroutines { _ = node.name.flatMap { sections.string($0) } }
                if let table = summary.lineTable {
                    tally.rows += table.rows.count
                    for i in 0 ..< Swift.min(table.files.count + 1, 64) { _ = summary.path(ofFile: UInt64(i), sections: sections) }
                }
            }
        }
        return tally
    }

    /// What `DWARFUnitSummary` promises: a depth-first subroutine tree whose ranges exist, and
    /// line sequences that lie within the rows and end with an end-of-sequence row.
    static func checkInvariants(_ summary: DWARFUnitSummary, sourceLocation: SourceLocation) {
        let count = summary.subroutines.count
        for (index, node) in summary.subroutines.enumerated() {
            let sound = (node.parent == -1 || (0 ..< index).contains(node.parent)) && (node.isInlined || node.parent == -1)
                && node.subtreeEnd > index && node.subtreeEnd <= count
                && node.rangeStart >= 0 && node.rangeCount >= 0 && node.rangeStart + node.rangeCount <= summary.ranges.count
            #expect(sound, "subroutine \(index) of \(count) breaks the summary's invariants: \(node)", sourceLocation: sourceLocation)
            if !sound { return }
        }
        if let table = summary.lineTable {
            for sequence in table.sequences {
                let sound = !sequence.isEmpty && sequence.lowerBound >= 0 && sequence.upperBound <= table.rows.count
                    && table.rows[sequence.upperBound - 1].isEndSequence
                #expect(sound, "line sequence \(sequence) of \(table.rows.count) rows is not usable", sourceLocation: sourceLocation)
                if !sound { return }
            }
        }
    }

    /// File ranges of the debug sections of every slice.
    static func debugSections(_ bytes: UnsafeRawBufferPointer) throws -> [Range<Int>] {
        let file = try MachOFile(bytes: bytes)
        var ranges: [Range<Int>] = []
        for slice in file.slices {
            let image = try MachOImage(bytes: MachOFile.bytes(of: slice, in: bytes))
            for section in image.segments.flatMap(\.sections) where section.name.hasPrefix("__debug_") && section.size > 0 {
                let start = slice.offset + Int(section.fileOffset)
                ranges.append(start ..< start + Int(section.size))
            }
        }
        return ranges
    }

    static func sweep(_ original: [UInt8], flipsPerSection: Int, truncations: Int, boundaries: Bool = true) throws {
        let baseline = original.withUnsafeBytes { exercise($0) }
        #expect(baseline.subroutines > 0 && baseline.rows > 0)
        #expect(baseline.errors == 0, "the undamaged file already has errors")
        let sections = try original.withUnsafeBytes { try debugSections($0) }
        #expect(sections.count >= 5)
        // Truncations: evenly spread, plus every section boundary.
        var lengths = Set(stride(from: 0, to: original.count, by: Swift.max(1, original.count / truncations)))
        if boundaries {
            for range in sections { lengths.formUnion([range.lowerBound + 1, range.lowerBound + range.count / 2, range.upperBound - 1]) }
        }
        var damagedErrors = 0
        for length in lengths.sorted() where length < original.count {
            let tally = original[..<length].withUnsafeBytes { exercise($0) }
            damagedErrors += tally.errors
            // A prefix without the end of the load commands cannot be read at all.
            if length < 32 { #expect(tally.errors > 0 && tally.subroutines == 0, "a \(length)-byte prefix read as Mach-O") }
        }
        // Bit flips inside each debug section, and a zeroed run in the middle of it.
        var mutated = original
        for range in sections {
            let step = Swift.max(1, range.count / flipsPerSection)
            for position in stride(from: range.lowerBound, to: range.upperBound, by: step) {
                let bit = UInt8(1) << UInt8(position % 8)
                mutated[position] ^= bit
                damagedErrors += mutated.withUnsafeBytes { exercise($0) }.errors
                mutated[position] ^= 0xff
                damagedErrors += mutated.withUnsafeBytes { exercise($0) }.errors
                mutated[position] = original[position]
            }
            let middle = range.lowerBound + range.count / 2
            for i in middle ..< Swift.min(range.upperBound, middle + 64) { mutated[i] = 0xff }
            damagedErrors += mutated.withUnsafeBytes { exercise($0) }.errors
            mutated = original
        }
        #expect(damagedErrors > 0, "no damage was ever reported: the sweep never reached an error path")
    }

    @Test(arguments: generated)
    func generatedDSYMsGiveTypedErrorsOrSoundPartialResultsWhenDamaged(_ path: String) throws {
        try Self.sweep([UInt8](try LocalFixtures.data(path)), flipsPerSection: 60, truncations: 200)
    }

    @Test(.enabled(if: SharedFixtures.available), arguments: real)
    func realDSYMsGiveTypedErrorsOrSoundPartialResultsWhenDamaged(_ path: String) throws {
        try Self.sweep([UInt8](try SharedFixtures.data(path)), flipsPerSection: 2, truncations: 6, boundaries: false)
    }

    @Test func hostileUnitHeadersAreRejected() throws {
        // unit_length larger than the section, reserved lengths, bad versions, bad address sizes.
        let cases: [[UInt8]] = [
            [0xff, 0xff, 0xff, 0x7f, 4, 0],
            [0xf0, 0xff, 0xff, 0xff, 4, 0],
            [7, 0, 0, 0, 9, 0, 0, 0, 0, 0, 8],
            [7, 0, 0, 0, 4, 0, 0, 0, 0, 0, 3],
            [3, 0, 0, 0, 5, 0, 1],
        ]
        for bytes in cases {
            bytes.withUnsafeBytes { raw in
                let (headers, error) = DWARFUnitHeader.all(in: raw)
                #expect(headers.isEmpty)
                #expect(error != nil)
            }
        }
    }

    @Test func selfReferencingAbstractOriginsTerminate() throws {
        // One unit: a compile unit holding a subprogram whose abstract origin is itself.
        let abbrev: [UInt8] = [1, 0x11, 1, 0, 0,  2, 0x2e, 0, 0x31, 0x13, 0x11, 0x01, 0x12, 0x06, 0, 0,  0]
        var info: [UInt8] = [0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 8]
        info += [1]                                 // compile unit, no attributes
        info += [2, 12, 0, 0, 0]                    // subprogram at offset 12, origin -> offset 12
        info += [0x00, 0x10, 0, 0, 0, 0, 0, 0]      // low_pc 0x1000
        info += [0x10, 0, 0, 0]                     // high_pc + 16
        info += [0]
        let length = UInt32(info.count - 4)
        info[0] = UInt8(length & 0xff)
        try abbrev.withUnsafeBytes { a in
            try info.withUnsafeBytes { i in
                let sections = DWARFSections(named: ["debug_info": i, "debug_abbrev": a])
                let summary = try DWARFContext(sections: sections).summary(ofUnitAt: 0)
                #expect(summary.subroutines.count == 1)
                #expect(summary.subroutines[0].name == nil)
                #expect(summary.ranges == [DWARFRange(low: 0x1000, high: 0x1010)])
            }
        }
    }
}
