import Foundation
import Testing
@testable import AppleFormats
import TestSupport

@Suite struct MachOSymbolTableTests {
    /// A 64-bit image with one __TEXT,__text section and a symbol table holding a defined function,
    /// a debugger stab, an undefined import, an absolute symbol and a __DATA symbol.
    static func image() -> [UInt8] {
        var b = ByteBuilder()
        b.u32(0xfeed_facf); b.u32(0x0100_000c); b.u32(0); b.u32(2); b.u32(3); b.u32(0); b.u32(0); b.u32(0)
        let commandsStart = b.count
        func segment(_ name: String, _ address: UInt64, sections: [(String, UInt64, UInt64)]) {
            b.u32(0x19); b.u32(UInt32(72 + 80 * sections.count))
            b.bytes += Array(name.utf8) + [UInt8](repeating: 0, count: 16 - name.utf8.count)
            b.u64(address); b.u64(0x1000); b.u64(0); b.u64(0); b.u32(5); b.u32(5); b.u32(UInt32(sections.count)); b.u32(0)
            for (sect, addr, size) in sections {
                b.bytes += Array(sect.utf8) + [UInt8](repeating: 0, count: 16 - sect.utf8.count)
                b.bytes += Array(name.utf8) + [UInt8](repeating: 0, count: 16 - name.utf8.count)
                b.u64(addr); b.u64(size); b.u32(0); b.u32(2); b.u32(0); b.u32(0); b.u32(0x8000_0400); b.u32(0); b.u32(0); b.u32(0)
            }
        }
        segment("__TEXT", 0x1_0000_0000, sections: [("__text", 0x1_0000_1000, 0x100)])
        segment("__DATA", 0x1_0000_2000, sections: [("__data", 0x1_0000_2000, 0x10)])
        let symtabAt = b.count
        b.u32(0x2); b.u32(24); b.u32(0); b.u32(0); b.u32(0); b.u32(0)
        let commandsSize = b.count - commandsStart
        b.patch32(at: 20, UInt32(commandsSize))
        var strings = ByteBuilder()
        strings.u8(0x20); strings.u8(0)
        func name(_ s: String) -> UInt32 { let o = strings.count; strings.cString(s); return UInt32(o) }
        let entries: [(UInt32, UInt8, UInt8, UInt64)] = [
            (name("_main"), 0x0f, 1, 0x1_0000_1010),                   // N_SECT | N_EXT in __text
            (name("/tmp/main.o"), 0x66, 0, 0),                         // N_OSO stab
            (name("_helper"), 0x24, 1, 0x1_0000_1000),                 // N_FUN stab
            (name("_local"), 0x0e, 1, 0x1_0000_1000),                  // local N_SECT
            (name("_printf"), 0x01, 0, 0),                             // undefined import
            (name("_absolute"), 0x03, 0, 0x42),                        // N_ABS
            (name("_global"), 0x0f, 2, 0x1_0000_2000),                 // __DATA
        ]
        let symoff = b.count
        for (strx, type, sect, value) in entries { b.u32(strx); b.u8(type); b.u8(sect); b.u16(0); b.u64(value) }
        let stroff = b.count
        b.bytes += strings.bytes
        b.patch32(at: symtabAt + 8, UInt32(symoff)); b.patch32(at: symtabAt + 12, UInt32(entries.count))
        b.patch32(at: symtabAt + 16, UInt32(stroff)); b.patch32(at: symtabAt + 20, UInt32(strings.count))
        return b.bytes
    }

    @Test func stabsUndefinedAndAbsoluteSymbolsAreSkipped() throws {
        try Self.image().withUnsafeBytes { raw in
            let image = try MachOImage(bytes: raw)
            let all = try image.definedSymbols(in: raw)
            #expect(all.map(\.name) == ["_local", "_main", "_global"])
            #expect(all[1].isExternal && !all[0].isExternal)
            let code = try image.definedSymbols(in: raw, codeOnly: true)
            #expect(code.map(\.name) == ["_local", "_main"])
            #expect(code.map(\.address) == [0x1_0000_1000, 0x1_0000_1010])
        }
    }

    @Test func hostileSymbolTablesAreRejectedOrSkipped() throws {
        var bytes = Self.image()
        // A symbol count that cannot fit.
        var huge = bytes
        let count = try #require(huge.indices.first { i in i + 24 <= huge.count && huge[i] == 0x02 && huge[i + 4] == 24 })
        huge[count + 12] = 0xff; huge[count + 13] = 0xff; huge[count + 14] = 0xff
        try huge.withUnsafeBytes { raw in
            let image = try MachOImage(bytes: raw)
            #expect(throws: MachOError.self) { try image.definedSymbols(in: raw) }
        }
        // Every byte flipped in turn: an error or a list, never a trap.
        for i in stride(from: 0, to: bytes.count, by: 5) {
            bytes[i] ^= 0xa5
            bytes.withUnsafeBytes { raw in
                if let image = try? MachOImage(bytes: raw) { _ = try? image.definedSymbols(in: raw) }
            }
            bytes[i] ^= 0xa5
        }
    }

    @Test func thirtyTwoBitThumbSymbolsFromARealDSYM() throws {
        let data = try LocalFixtures.data("symbols/fat/Fat.dSYM/Contents/Resources/DWARF/Fat")
        try data.withUnsafeBytes { raw in
            let file = try MachOFile(bytes: raw)
            let slice = MachOFile.bytes(of: try file.slice(choosing: .armv7), in: raw)
            let image = try MachOImage(bytes: slice)
            let symbols = try image.definedSymbols(in: slice, codeOnly: true)
            #expect(symbols.map(\.name).contains("_main"))
            #expect(symbols.allSatisfy { $0.isThumb && $0.address % 2 == 0 })
        }
    }

    @Test func sliceChoiceFollowsTheRequestedArchitecture() throws {
        let data = try LocalFixtures.data("symbols/fat/Fat.dSYM/Contents/Resources/DWARF/Fat")
        try data.withUnsafeBytes { raw in
            let file = try MachOFile(bytes: raw)
            #expect(file.slices.map(\.architecture.name) == ["armv7", "arm64"])  // llvm-lipo orders by CPU type
            #expect(try file.slice(choosing: .arm64).architecture == .arm64)
            #expect(try file.slice(choosing: .armv7).architecture == .armv7)
            // An arm64e request takes the arm64 slice; no request takes the most modern slice.
            #expect(try file.slice(choosing: .arm64e).architecture == .arm64)
            #expect(try file.slice(choosing: nil).architecture == .arm64)
            // A generic 32-bit ARM request takes the ARMv7 slice.
            #expect(try file.slice(choosing: MachOArchitecture(cpuType: 12, cpuSubtype: 0)).architecture == .armv7)
            #expect(throws: MachOError.missingArchitecture("x86_64", available: ["armv7", "arm64"])) { try file.slice(choosing: .x86_64) }
        }
    }
}
