import Foundation
import Testing
@testable import AppleFormats
import TestSupport

/// Truncations and bit flips of every DWARF fixture: each must give an error or a partial
/// result, never a trap or a hang.
@Suite struct DWARFRobustnessTests {
    static let generated = [
        "symbols/arm64-dwarf4/App.dSYM/Contents/Resources/DWARF/App",
        "symbols/arm64-dwarf5/App.dSYM/Contents/Resources/DWARF/App",
        "symbols/fat/Fat.dSYM/Contents/Resources/DWARF/Fat",
    ]
    // One real dSYM (32-bit, Apple toolchain) keeps the sweep quick; the generated ones cover the rest.
    static let real = ["crash/crashprobe/armv7-CrashProbeiOS.app.dSYM/Contents/Resources/DWARF/CrashProbeiOS"]

    /// Reads everything the symbolicator reads; returns how many subroutines and rows came out.
    @discardableResult
    static func exercise(_ bytes: UnsafeRawBufferPointer) -> (subroutines: Int, rows: Int) {
        var subroutines = 0, rows = 0
        guard let file = try? MachOFile(bytes: bytes) else { return (0, 0) }
        for slice in file.slices {
            let sliceBytes = MachOFile.bytes(of: slice, in: bytes)
            guard let image = try? MachOImage(bytes: sliceBytes) else { continue }
            _ = try? image.definedSymbols(in: sliceBytes, codeOnly: true)
            let sections = DWARFSections(image: image, bytes: sliceBytes)
            let context = DWARFContext(sections: sections)
            for index in context.unitHeaders.indices {
                guard let summary = try? context.summary(ofUnitAt: index) else { continue }
                subroutines += summary.subroutines.count
                for node in summary.subroutines { _ = node.name.flatMap { sections.string($0) } }
                if let table = summary.lineTable {
                    rows += table.rows.count
                    for i in 0 ..< Swift.min(table.files.count + 1, 64) { _ = summary.path(ofFile: UInt64(i), sections: sections) }
                }
            }
        }
        return (subroutines, rows)
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
        let sections = try original.withUnsafeBytes { try debugSections($0) }
        #expect(sections.count >= 5)
        // Truncations: evenly spread, plus every section boundary.
        var lengths = Set(stride(from: 0, to: original.count, by: Swift.max(1, original.count / truncations)))
        if boundaries {
            for range in sections { lengths.formUnion([range.lowerBound + 1, range.lowerBound + range.count / 2, range.upperBound - 1]) }
        }
        for length in lengths.sorted() where length < original.count {
            original[..<length].withUnsafeBytes { _ = exercise($0) }
        }
        // Bit flips inside each debug section, and a zeroed run in the middle of it.
        var mutated = original
        for range in sections {
            let step = Swift.max(1, range.count / flipsPerSection)
            for position in stride(from: range.lowerBound, to: range.upperBound, by: step) {
                let bit = UInt8(1) << UInt8(position % 8)
                mutated[position] ^= bit
                mutated.withUnsafeBytes { _ = exercise($0) }
                mutated[position] ^= 0xff
                mutated.withUnsafeBytes { _ = exercise($0) }
                mutated[position] = original[position]
            }
            let middle = range.lowerBound + range.count / 2
            for i in middle ..< Swift.min(range.upperBound, middle + 64) { mutated[i] = 0xff }
            mutated.withUnsafeBytes { _ = exercise($0) }
            mutated = original
        }
    }

    @Test(arguments: generated)
    func generatedDSYMsSurviveTruncationsAndBitFlips(_ path: String) throws {
        try Self.sweep([UInt8](try LocalFixtures.data(path)), flipsPerSection: 60, truncations: 200)
    }

    @Test(.enabled(if: SharedFixtures.available), arguments: real)
    func realDSYMsSurviveTruncationsAndBitFlips(_ path: String) throws {
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
