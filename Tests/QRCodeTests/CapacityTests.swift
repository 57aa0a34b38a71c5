import Testing
import TestSupport
@testable import QRCode

@Suite struct CapacityTests {
    /// ISO/IEC 18004 table 7, byte mode at level M, versions 1–40: the encoder computes these from
    /// the block table and the module layout, never from this list.
    static let publishedCapacities = [
        14, 26, 42, 62, 84, 106, 122, 152, 180, 213, 251, 287, 331, 362, 412, 450, 504, 560, 624, 666,
        711, 779, 857, 911, 997, 1059, 1125, 1190, 1264, 1370, 1452, 1538, 1628, 1722, 1809, 1911, 1989, 2099, 2213, 2331,
    ]

    @Test func byteCapacityOfEveryVersionMatchesTheStandardsTable() {
        for version in 1 ... 40 {
            #expect(QRCode.byteCapacity(version: version) == Self.publishedCapacities[version - 1], "version \(version)")
        }
        #expect(QRCode.maximumByteCount == 2331)
        #expect(QRCode.byteCapacity(version: 0) == nil && QRCode.byteCapacity(version: 41) == nil)
    }

    @Test func codewordCountsMatchModulesCountedOnTheLayout() {
        for version in 1 ... 40 {
            let counted = ReferenceLayout.dataModuleCount(version: version)
            let layout = QRVersion.number(version)
            #expect(layout.dataModules == counted, "version \(version)")
            #expect(layout.totalCodewords == counted / 8 && layout.remainderBits == counted % 8, "version \(version)")
            // The placement walks exactly those modules.
            var grid = ModuleGrid(version: layout)
            #expect(grid.placeCodewords([UInt8](repeating: 0, count: layout.totalCodewords)) == counted, "version \(version)")
        }
    }

    @Test func capacityIsTheDataCodewordsLessModeAndCountBits() {
        for version in 1 ... 40 {
            let counted = ReferenceLayout.dataModuleCount(version: version) / 8
            let layout = QRVersion.number(version)
            let dataCodewords = counted - layout.blockCount * layout.errorCorrectionPerBlock
            let countBits = version <= 9 ? 8 : 16
            #expect(QRCode.byteCapacity(version: version) == (dataCodewords * 8 - 4 - countBits) / 8, "version \(version)")
        }
    }

    @Test func eachCapacityFitsItsVersionAndOneByteMoreNeedsTheNext() throws {
        for version in 1 ... 40 {
            let capacity = Self.publishedCapacities[version - 1]
            #expect(try QRCode.encode(Samples.url(length: capacity)).version == version)
            if version < 40 {
                #expect(try QRCode.encode(Samples.url(length: capacity + 1)).version == version + 1)
            }
        }
        #expect(try QRCode.encode([UInt8]()).version == 1)
    }

    @Test func oneByteOverTheMaximumIsATypedErrorNamingBothCounts() {
        let tooLong = [UInt8](repeating: 0x41, count: 2332)
        #expect(throws: QRCodeError.tooLong(byteCount: 2332, maximum: 2331)) { try QRCode.encode(tooLong) }
        do {
            _ = try QRCode.encode(String(repeating: "é", count: 1200))
            Issue.record("2,400 bytes of UTF-8 were accepted")
        } catch {
            #expect(error.description == "the text is 2,400 bytes; a QR code at error correction level M holds at most 2,331, so shorten it")
        }
        #expect(throws: QRCodeError.tooLong(byteCount: 1_000_000, maximum: 2331)) {
            try QRCode.encode(repeatElement(UInt8(0), count: 1_000_000))
        }
    }

    @Test func byteCountsAreGroupedByThousands() {
        #expect(QRCodeError.grouped(0) == "0")
        #expect(QRCodeError.grouped(999) == "999")
        #expect(QRCodeError.grouped(1000) == "1,000")
        #expect(QRCodeError.grouped(1_234_567) == "1,234,567")
    }
}
