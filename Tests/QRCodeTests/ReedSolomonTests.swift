import Testing
@testable import QRCode

@Suite struct ReedSolomonTests {
    @Test func degree10GeneratorMatchesTheStandardsAnnexA() {
        // g(x) = x¹⁰ + α²⁵¹x⁹ + α⁶⁷x⁸ + α⁴⁶x⁷ + α⁶¹x⁶ + α¹¹⁸x⁵ + α⁷⁰x⁴ + α⁶⁴x³ + α⁹⁴x² + α³²x + α⁴⁵
        let exponents = ReedSolomon.generator(degree: 10).map { ReedSolomon.logarithms[Int($0)] }
        #expect(exponents == [251, 67, 46, 61, 118, 70, 64, 94, 32, 45])
    }

    @Test(arguments: Set(ErrorCorrectionTable.codewordsPerBlock).sorted())
    func generatorVanishesAtItsRoots(degree: Int) {
        let generator = [UInt8(1)] + ReedSolomon.generator(degree: degree)
        for root in 0 ..< degree {
            #expect(ReferenceDecoder.evaluate(generator, at: ReferenceDecoder.power(2, root)) == 0, "degree \(degree), α^\(root)")
        }
        #expect(ReferenceDecoder.evaluate(generator, at: ReferenceDecoder.power(2, degree)) != 0)
    }

    @Test func errorCorrectionOfTheStandardsWorkedExample() {
        // ISO/IEC 18004 Annex I: "01234567" in numeric mode, version 1-M.
        let data: [UInt8] = [0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11]
        let correction = ReedSolomon.remainder(of: data[...], generator: ReedSolomon.generator(degree: 10))
        #expect(correction == [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55])
    }

    @Test func tablesAgreeWithShiftAndAddMultiplication() {
        for a in 0 ... 255 {
            for b in stride(from: 0, through: 255, by: 7) {
                #expect(ReedSolomon.multiply(UInt8(a), UInt8(b)) == ReferenceDecoder.multiply(UInt8(a), UInt8(b)))
            }
        }
    }

    @Test func blocksSplitAsEvenlyAsPossibleWithTheLongerOnesLast() {
        // Version 5-M: two blocks of 43 data codewords; version 13-M: 8 of 37 then 1 of 38.
        let v5 = QRVersion.number(5), v13 = QRVersion.number(13)
        #expect(v5.dataCodewords == 86 && v5.blockCount == 2 && v5.errorCorrectionPerBlock == 24)
        #expect(v13.dataCodewords == 8 * 37 + 38 && v13.blockCount == 9 && v13.errorCorrectionPerBlock == 22)
        let data = (0 ..< v13.dataCodewords).map { UInt8(truncatingIfNeeded: $0) }
        let interleaved = QRCode.interleavedCodewords(data, version: v13)
        #expect(interleaved.count == v13.totalCodewords)
        // Column 0 takes the first codeword of each block: block b starts at 37·b.
        #expect(Array(interleaved.prefix(9)) == (0 ..< 9).map { UInt8(truncatingIfNeeded: 37 * $0) })
        // The 38th data codeword exists only in the last block, and comes just before the error correction.
        #expect(interleaved[37 * 9] == UInt8(truncatingIfNeeded: 8 * 37 + 37))
    }
}
