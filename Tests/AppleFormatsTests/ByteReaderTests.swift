import Testing
@testable import AppleFormats

@Suite struct ByteReaderTests {
    @Test func readsLittleAndBigEndianIntegers() throws {
        let data: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08]
        try data.withUnsafeBytes { raw throws in
            var r = ByteReader(raw)
            #expect(try r.u16le() == 0x0201)
            #expect(try r.u16be() == 0x0304)
            #expect(try r.u32le() == 0x0807_0605)
            #expect(r.isAtEnd)
            var b = ByteReader(raw)
            #expect(try b.u64be() == 0x0102_0304_0506_0708)
            var c = ByteReader(raw)
            #expect(try c.uintLE(byteCount: 3) == 0x030201)
        }
    }

    @Test func truncatedReadThrowsAndDoesNotMove() throws {
        let data: [UInt8] = [1, 2, 3]
        try data.withUnsafeBytes { raw throws in
            var r = ByteReader(raw)
            #expect(throws: BinaryError.truncated(at: 0, needed: 4, available: 3)) { try r.u32le() }
            #expect(r.offset == 0)
            #expect(throws: BinaryError.self) { try r.skip(-1) }
        }
    }

    @Test func decodesLEB128IncludingEdgeCases() throws {
        func uleb(_ bytes: [UInt8]) throws -> UInt64 { try bytes.withUnsafeBytes { var r = ByteReader($0); return try r.uleb128() } }
        func sleb(_ bytes: [UInt8]) throws -> Int64 { try bytes.withUnsafeBytes { var r = ByteReader($0); return try r.sleb128() } }
        #expect(try uleb([0x02]) == 2)
        #expect(try uleb([0xe5, 0x8e, 0x26]) == 624_485)
        #expect(try uleb([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]) == UInt64.max)
        #expect(throws: BinaryError.self) { try uleb([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02]) }
        #expect(throws: BinaryError.self) { try uleb([0x80, 0x80]) }
        #expect(throws: BinaryError.self) { try uleb(Array(repeating: 0x80, count: 20) + [0]) }
        #expect(try sleb([0x7f]) == -1)
        #expect(try sleb([0xc0, 0xbb, 0x78]) == -123_456)
        #expect(try sleb([0x3f]) == 63)
    }

    @Test func cStringRequiresTerminator() throws {
        let good: [UInt8] = Array("abc".utf8) + [0, 0x41]
        try good.withUnsafeBytes { raw throws in
            var r = ByteReader(raw)
            #expect(try r.cString() == "abc")
            #expect(r.offset == 4)
        }
        let bad: [UInt8] = Array("abc".utf8)
        try bad.withUnsafeBytes { raw throws in
            var r = ByteReader(raw)
            #expect(throws: BinaryError.self) { try r.cString() }
        }
    }

    @Test func sliceRejectsRangesOutsideTheBuffer() throws {
        let data = [UInt8](repeating: 7, count: 16)
        try data.withUnsafeBytes { raw throws in
            let r = ByteReader(raw)
            #expect(try r.slice(at: 8, count: 8).remaining == 8)
            #expect(throws: BinaryError.self) { try r.slice(at: 9, count: 8) }
            #expect(throws: BinaryError.self) { try r.slice(at: Int.max, count: 1) }
            #expect(throws: BinaryError.self) { try r.slice(at: 1, count: Int.max) }
        }
    }
}
