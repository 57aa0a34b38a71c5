import Foundation
import Testing
@testable import AppleFormats

/// Hand-assembled DWARF for forms, unit layouts and line opcodes that the generated fixtures do not
/// contain (dsymutil rewrites rnglistx to sec_offset, clang never emits DW_FORM_indirect, …).
@Suite struct DWARFFormsTests {
    // Attribute and form numbers used below.
    let nameAttr: UInt64 = 0x03, lowPC: UInt64 = 0x11, highPC: UInt64 = 0x12, stmtList: UInt64 = 0x10, compDir: UInt64 = 0x1b
    let origin: UInt64 = 0x31, ranges: UInt64 = 0x55, callFile: UInt64 = 0x58, callLine: UInt64 = 0x59, callColumn: UInt64 = 0x57
    let linkage: UInt64 = 0x6e, strOffsetsBase: UInt64 = 0x72, addrBase: UInt64 = 0x73, rnglistsBase: UInt64 = 0x74, declFile: UInt64 = 0x3a

    /// A DWARF 5 unit exercising strx1-4, addrx1-4, rnglistx, line_strp, implicit_const, data16,
    /// indirect, ref_udata, sdata, block1 and exprloc, with a DWARF 5 line table.
    @Test func dwarf5FormsResolveThroughTheirBases() throws {
        var str = ByteBuilder()
        str.cString("")                      // 0
        let sMain = str.count; str.cString("main.c")
        let sOuter = str.count; str.cString("outer")
        let sHelper = str.count; str.cString("_Z6helperv")
        let sBlock = str.count; str.cString("blocky")
        var lineStr = ByteBuilder()
        let lsDir = lineStr.count; lineStr.cString("/src")
        let lsFile = lineStr.count; lineStr.cString("main.c")
        let lsHeader = lineStr.count; lineStr.cString("inc/helper.h")
        let lsCompDir = lineStr.count; lineStr.cString("/src")

        // .debug_str_offsets: header (length, version 5, padding), then offsets.
        var offsets = ByteBuilder()
        offsets.u32(4 * 5 + 4); offsets.u16(5); offsets.u16(0)
        for o in [0, sMain, sOuter, sHelper, sBlock] { offsets.u32(UInt32(o)) }
        // .debug_addr: header, then addresses.
        var addr = ByteBuilder()
        addr.u32(8 * 4 + 4); addr.u16(5); addr.u8(8); addr.u8(0)
        for a: UInt64 in [0x1000, 0x1100, 0x1040, 0x2000] { addr.u64(a) }
        // .debug_rnglists: header, one offset entry, then a list: startx_length + offset_pair.
        var rng = ByteBuilder()
        rng.u32(0); rng.u16(5); rng.u8(8); rng.u8(0); rng.u32(1)
        let rngBase = rng.count
        rng.u32(4)                      // offset of list 0 relative to the base
        rng.u8(3); rng.uleb(0); rng.uleb(0x40)     // startx_length: [0x1000, 0x1040)
        rng.u8(5); rng.u64(0x2000)                 // base_address 0x2000
        rng.u8(4); rng.uleb(0); rng.uleb(0x10)     // offset_pair [0x2000, 0x2010)
        rng.u8(0)
        rng.patch32(at: 0, UInt32(rng.count - 4))

        // .debug_line v5.
        var line = ByteBuilder()
        line.u32(0); line.u16(5); line.u8(8); line.u8(0)
        let headerLengthAt = line.count; line.u32(0)
        let headerStart = line.count
        line.u8(1); line.u8(1); line.u8(1); line.u8(UInt8(bitPattern: -5)); line.u8(14); line.u8(13)
        line.bytes += [0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1]
        line.u8(1); line.uleb(1); line.uleb(0x1f)                 // directories: path as line_strp
        line.uleb(2); line.u32(UInt32(lsDir)); line.u32(UInt32(lsDir))
        line.u8(3); line.uleb(1); line.uleb(0x1f); line.uleb(2); line.uleb(0x0b); line.uleb(5); line.uleb(0x1e)  // path, dir index, MD5 (data16)
        line.uleb(2)
        line.u32(UInt32(lsFile)); line.u8(0); line.bytes += [UInt8](repeating: 0xab, count: 16)
        line.u32(UInt32(lsHeader)); line.u8(0); line.bytes += [UInt8](repeating: 0xcd, count: 16)
        line.patch32(at: headerLengthAt, UInt32(line.count - headerStart))
        line.u8(0); line.uleb(9); line.u8(2); line.u64(0x1000)   // set_address
        line.u8(5); line.uleb(3)                                  // column 3
        line.u8(1)                                                // copy: 0x1000 line 1 file 1 (main.c in v5? file register 1 = helper.h)
        line.u8(4); line.uleb(0)                                  // file 0 = main.c
        line.u8(3); line.sleb(9)                                  // line 10
        line.u8(2); line.uleb(0x10)                               // advance 0x10
        line.u8(1)                                                // 0x1010 line 10
        line.u8(9); line.u16(0x30)                                // fixed advance to 0x1040
        line.u8(0); line.uleb(1); line.u8(1)                      // end_sequence at 0x1040
        line.patch32(at: 0, UInt32(line.count - 4))

        // Abbreviations.
        var abbrev = ByteBuilder()
        func decl(_ code: UInt64, _ tag: UInt64, _ children: Bool, _ specs: [(UInt64, UInt64, Int64?)]) {
            abbrev.uleb(code); abbrev.uleb(tag); abbrev.u8(children ? 1 : 0)
            for (attribute, form, implicit) in specs {
                abbrev.uleb(attribute); abbrev.uleb(form)
                if let implicit { abbrev.sleb(implicit) }
            }
            abbrev.uleb(0); abbrev.uleb(0)
        }
        decl(1, 0x11, true, [(nameAttr, 0x25, nil), (compDir, 0x1f, nil), (stmtList, 0x17, nil), (strOffsetsBase, 0x17, nil),
                             (addrBase, 0x17, nil), (rnglistsBase, 0x17, nil), (lowPC, 0x29, nil)])
        // Abstract helper: name via strx4, decl_file via implicit_const, an attribute via data16.
        decl(2, 0x2e, false, [(linkage, 0x28, nil), (declFile, 0x21, 7), (0x3b, 0x1e, nil)])
        // Concrete outer: ranges via rnglistx, name via strx2, a frame base via exprloc, an sdata attribute.
        decl(3, 0x2e, true, [(nameAttr, 0x26, nil), (ranges, 0x23, nil), (0x40, 0x18, nil), (0x3e, 0x0d, nil)])
        // Inlined helper: origin via ref_udata, low_pc via addrx2, high_pc via indirect data4, call site.
        decl(4, 0x1d, false, [(origin, 0x15, nil), (lowPC, 0x2a, nil), (highPC, 0x16, nil), (callFile, 0x0b, nil),
                              (callLine, 0x0f, nil), (callColumn, 0x0b, nil), (0x02, 0x0a, nil)])
        // A lexical block between them, with addrx3/addrx4/strx3/strx1 to exercise the widths.
        decl(5, 0x0b, true, [(lowPC, 0x2b, nil), (highPC, 0x07, nil), (0x03, 0x27, nil), (0x2000, 0x2c, nil), (0x2001, 0x25, nil)])
        abbrev.uleb(0)

        var info = ByteBuilder()
        info.u32(0); info.u16(5); info.u8(1); info.u8(8); info.u32(0)
        info.uleb(1); info.u8(1); info.u32(UInt32(lsCompDir)); info.u32(0); info.u32(8); info.u32(8); info.u32(UInt32(rngBase)); info.u8(0)
        let helperOffset = info.count
        info.uleb(2); info.u32(3); info.bytes += [UInt8](repeating: 0x11, count: 16)
        info.uleb(3); info.u16(2); info.uleb(0); info.uleb(1); info.u8(0x56); info.sleb(-3)
        info.uleb(5); info.u24(0); info.u64(0x40); info.u24(4); info.u32(0); info.u8(1)
        info.uleb(4); info.uleb(UInt64(helperOffset)); info.u16(2); info.uleb(0x06); info.u32(0x10)
        info.u8(1); info.uleb(12); info.u8(5); info.u8(3); info.bytes += [1, 2, 3]
        info.u8(0)  // end of lexical block
        info.u8(0)  // end of outer
        info.u8(0)  // end of unit
        info.patch32(at: 0, UInt32(info.count - 4))

        try withSections(["debug_info": info.bytes, "debug_abbrev": abbrev.bytes, "debug_str": str.bytes, "debug_line_str": lineStr.bytes,
                          "debug_str_offsets": offsets.bytes, "debug_addr": addr.bytes, "debug_rnglists": rng.bytes, "debug_line": line.bytes]) { sections in
            let context = DWARFContext(sections: sections)
            #expect(context.unitHeaders.count == 1)
            let summary = try context.summary(ofUnitAt: 0)
            #expect(summary.errors.isEmpty)
            #expect(summary.unit.name.flatMap { sections.string($0) } == "main.c")
            #expect(summary.compilationDirectory == "/src")
            #expect(summary.subroutines.count == 2)
            let outer = summary.subroutines[0], helper = summary.subroutines[1]
            #expect(outer.name.flatMap { sections.string($0) } == "outer")
            #expect(Array(summary.ranges[outer.rangeStart ..< outer.rangeStart + outer.rangeCount]) ==
                    [DWARFRange(low: 0x1000, high: 0x1040), DWARFRange(low: 0x2000, high: 0x2010)])
            #expect(helper.isInlined)
            #expect(helper.parent == 0)
            #expect(helper.name.flatMap { sections.string($0) } == "_Z6helperv")
            #expect(summary.ranges[helper.rangeStart] == DWARFRange(low: 0x1040, high: 0x1050))
            #expect((helper.callFile, helper.callLine, helper.callColumn) == (1, 12, 5))
            let table = try #require(summary.lineTable)
            #expect(table.version == 5)
            #expect(table.rows.map(\.address) == [0x1000, 0x1010, 0x1040])
            #expect(table.rows.map(\.line) == [1, 10, 10])
            #expect(table.sequences == [0 ..< 3])
            #expect(summary.path(ofFile: 0, sections: sections) == "/src/main.c")
            #expect(summary.path(ofFile: 1, sections: sections) == "/src/inc/helper.h")
            #expect(summary.path(ofFile: 2, sections: sections) == nil)
        }
    }

    /// A DWARF 2 unit in 64-bit DWARF: ref_addr is address-sized in version 2, ranges are a data8
    /// offset into .debug_ranges with a base-address entry, and the line table is version 2.
    @Test func dwarf2SixtyFourBitUnitWithLegacyRangesAndLineOpcodes() throws {
        var abbrev = ByteBuilder()
        abbrev.uleb(1); abbrev.uleb(0x11); abbrev.u8(1)
        for (a, f) in [(nameAttr, 0x08), (compDir, 0x08), (stmtList, 0x07), (lowPC, 0x01)] as [(UInt64, UInt64)] { abbrev.uleb(a); abbrev.uleb(f) }
        abbrev.uleb(0); abbrev.uleb(0)
        abbrev.uleb(2); abbrev.uleb(0x2e); abbrev.u8(0)
        for (a, f) in [(nameAttr, 0x08), (ranges, 0x07)] as [(UInt64, UInt64)] { abbrev.uleb(a); abbrev.uleb(f) }
        abbrev.uleb(0); abbrev.uleb(0)
        abbrev.uleb(3); abbrev.uleb(0x2e); abbrev.u8(0)
        for (a, f) in [(origin, 0x10), (lowPC, 0x01), (highPC, 0x01)] as [(UInt64, UInt64)] { abbrev.uleb(a); abbrev.uleb(f) }
        abbrev.uleb(0); abbrev.uleb(0)
        abbrev.uleb(0)

        var ranges = ByteBuilder()
        ranges.u32(0xffff_ffff); ranges.u32(0x8000)   // base address selection (4-byte addresses)
        ranges.u32(0x10); ranges.u32(0x20)
        ranges.u32(0); ranges.u32(0)

        var line = ByteBuilder()
        line.u32(0xffff_ffff); line.u64(0); line.u16(2)
        let lengthAt = line.count; line.u64(0)
        let start = line.count
        line.u8(2); line.u8(1); line.u8(UInt8(bitPattern: -3)); line.u8(12); line.u8(10)
        line.bytes += [0, 1, 1, 1, 1, 0, 0, 0, 1]
        line.cString("lib"); line.u8(0)
        line.cString("a.c"); line.uleb(0); line.uleb(0); line.uleb(0)
        line.u8(0)
        line.patch32(at: lengthAt, UInt32(line.count - start))
        line.u8(0); line.uleb(5); line.u8(2); line.u32(0x8010)     // set_address (4 bytes)
        line.u8(0); line.uleb(8); line.u8(3); line.cString("b.c"); line.uleb(1); line.uleb(0); line.uleb(0)  // define_file 2 in lib/
        line.u8(13)                                               // special: advance 0, line +(-3+0)
        line.u8(4); line.uleb(2)                                  // file 2
        line.u8(8)                                                // const_add_pc: (255-10)/12 = 20 ops * 2
        line.u8(0); line.uleb(2); line.u8(4); line.uleb(7)        // set_discriminator
        line.u8(6); line.u8(7); line.u8(12); line.uleb(1)         // negate_stmt, basic_block, set_isa (opcode >= base is special!)
        line.u8(0); line.uleb(1); line.u8(1)
        let total = line.count - 12
        line.bytes.replaceSubrange(4 ..< 12, with: withUnsafeBytes(of: UInt64(total).littleEndian, Array.init))

        var info = ByteBuilder()
        info.u32(0xffff_ffff); info.u64(0); info.u16(2); info.u64(0); info.u8(4)
        info.uleb(1); info.cString("a.c"); info.cString("/w"); info.u64(0); info.u32(0x8000)
        let declOffset = info.count
        info.uleb(2); info.cString("ranged"); info.u64(0)
        info.uleb(3); info.u32(UInt32(declOffset)); info.u32(0x8030); info.u32(0x8040)
        info.u8(0)
        let unitTotal = info.count - 12
        info.bytes.replaceSubrange(4 ..< 12, with: withUnsafeBytes(of: UInt64(unitTotal).littleEndian, Array.init))

        try withSections(["debug_info": info.bytes, "debug_abbrev": abbrev.bytes, "debug_ranges": ranges.bytes, "debug_line": line.bytes]) { sections in
            let context = DWARFContext(sections: sections)
            let header = try #require(context.unitHeaders.first)
            #expect(header.format == DWARFFormat(version: 2, addressSize: 4, offsetSize: 8))
            let summary = try context.summary(ofUnitAt: 0)
            #expect(summary.errors.isEmpty)
            #expect(summary.subroutines.count == 2)
            #expect(summary.ranges == [DWARFRange(low: 0x8010, high: 0x8020), DWARFRange(low: 0x8030, high: 0x8040)])
            #expect(summary.subroutines[1].name.flatMap { sections.string($0) } == "ranged")
            let table = try #require(summary.lineTable)
            // Special opcode 13 adds nothing; const_add_pc moves 20 operations of 2 bytes; opcode 12 is
            // special here (opcode base 10): line 1 + (-3 + 2) = 0; then a copy and the end.
            let addresses: [UInt64] = [0x8010, 0x8038, 0x8038, 0x8038]
            #expect(table.rows.map(\.address) == addresses)
            #expect(table.rows.map(\.line) == [1, 0, 0, 0])
            #expect(table.rows.map(\.file) == [1, 2, 2, 2])
            #expect(table.rows.map(\.isEndSequence) == [false, false, false, true])
            #expect(summary.path(ofFile: 1, sections: sections) == "/w/a.c")
            #expect(summary.path(ofFile: 2, sections: sections) == "/w/lib/b.c")
        }
    }

    func withSections(_ named: [String: [UInt8]], _ body: (DWARFSections) throws -> Void) throws {
        // Keep every buffer alive for the call.
        let storage = named.mapValues { bytes -> UnsafeMutableRawBufferPointer in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Swift.max(bytes.count, 1), alignment: 8)
            buffer.copyBytes(from: bytes)
            return buffer
        }
        defer { for buffer in storage.values { buffer.deallocate() } }
        var sections: [String: UnsafeRawBufferPointer] = [:]
        for (name, buffer) in storage { sections[name] = UnsafeRawBufferPointer(rebasing: buffer[0 ..< (named[name] ?? []).count]) }
        try body(DWARFSections(named: sections))
    }
}
