@testable import AppleFormats
import Foundation
import Testing
import TestSupport

/// CodeDirectory parsing: Apple's layout read right, hostile headers refused without trapping.
@Suite("CodeDirectory")
struct CodeDirectoryTests {
    /// A minimal version 0x20400 SHA-256 CodeDirectory with `special` and `code` zeroed slots.
    static func directory(special: UInt32 = 2, code: UInt32 = 1, hashSize: UInt8 = 32, type: UInt8 = 2, pageSize: UInt8 = 12,
                          identOffset: UInt32? = nil, length: UInt32? = nil) -> [UInt8] {
        let header = 88
        let ident = Array("com.example.app".utf8) + [0]
        let hashOffset = header + ident.count + Int(special) * Int(hashSize)
        let total = hashOffset + Int(code) * Int(hashSize)
        var bytes: [UInt8] = []
        func u32(_ value: UInt32) { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
        func u64(_ value: UInt64) { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
        u32(0xfade_0c02); u32(length ?? UInt32(truncatingIfNeeded: min(total, 4096))); u32(0x20400); u32(0); u32(UInt32(truncatingIfNeeded: hashOffset))
        u32(identOffset ?? UInt32(header)); u32(special); u32(code); u32(4096)
        bytes += [hashSize, type, 0, pageSize]
        u32(0); u32(0); u32(0); u32(0); u64(0); u64(0); u64(0x4000); u64(1)
        bytes += ident
        bytes += [UInt8](repeating: 0, count: max(0, min(total, 4096) - bytes.count))
        return bytes
    }

    @Test("Fields of a version 0x20400 SHA-256 directory are read, execSeg included")
    func reads() throws {
        let directory = try CodeDirectory(bytes: Self.directory())
        #expect(directory.identifier == "com.example.app")
        #expect(directory.hashType == .sha256)
        #expect(directory.specialSlotCount == 2)
        #expect(directory.codeSlotCount == 1)
        #expect(directory.pageSize == 4096)
        #expect(directory.execSegLimit == 0x4000)
        #expect(directory.execSegFlags == CodeDirectory.mainBinaryFlag)
        #expect(directory.specialSlotHash(.requirements)?.count == 32)
        #expect(directory.specialSlotHash(.entitlements) == nil)
        #expect(directory.cdHash?.count == 20)
    }

    @Test("Hostile headers are refused with a reason: lying length, slot counts, hash size, identifier offset, hash type")
    func refusesHostile() {
        let cases: [[UInt8]] = [
            Self.directory(length: 10_000),
            Self.directory(special: 0, code: 0xffff_ffff),
            Self.directory(hashSize: 20),
            Self.directory(identOffset: 0xffff_fff0),
            Self.directory(type: 9),
            Self.directory(pageSize: 40),
            Array(Self.directory().prefix(30)),
        ]
        for bytes in cases {
            #expect(throws: CodeSignatureError.self) { try CodeDirectory(bytes: bytes) }
        }
    }
}
