import Testing
import TestSupport
@testable import QRCode

/// The function patterns, format information and version information of finished symbols,
/// checked against the standard's descriptions in `ReferenceLayout`.
@Suite struct StructureTests {
    static let versions = [1, 2, 6, 7, 13, 14, 21, 27, 28, 32, 34, 35, 40]

    static func symbol(version: Int, mask: Int? = nil) throws -> QRCode {
        try QRCode.encode(patternBytes(version * 5, seed: 3), version: version, mask: mask)
    }

    @Test(arguments: versions)
    func finderPatternsSeparatorsTimingAndTheDarkModule(version: Int) throws {
        let code = try Self.symbol(version: version)
        let size = code.size
        #expect(code.version == version && size == 17 + 4 * version)
        for (left, top) in [(0, 0), (size - 7, 0), (0, size - 7)] {
            for dy in -1 ... 7 {
                for dx in -1 ... 7 {
                    let x = left + dx, y = top + dy
                    guard (0 ..< size).contains(x), (0 ..< size).contains(y) else { continue }
                    // Rings from the outside: separator light, border dark, gap light, 3x3 core dark.
                    let ring = min(dx + 1, dy + 1, 7 - dx, 7 - dy)
                    #expect(code.isDark(x: x, y: y) == (ring == 1 || ring >= 3), "finder at (\(left),\(top)): module (\(x),\(y))")
                }
            }
        }
        for index in 8 ... size - 9 {
            #expect(code.isDark(x: index, y: 6) == index.isMultiple(of: 2), "horizontal timing at \(index)")
            #expect(code.isDark(x: 6, y: index) == index.isMultiple(of: 2), "vertical timing at \(index)")
        }
        #expect(code.isDark(x: 8, y: size - 8), "the dark module")
        #expect(!code.isDark(x: -1, y: 0) && !code.isDark(x: size, y: size - 1) && !code.isDark(x: 0, y: size), "outside is quiet zone")
    }

    @Test func alignmentCentresAreComputedAsAnnexETabulatesThem() {
        for version in 1 ... 40 {
            #expect(QRVersion.number(version).alignmentCenters == (ReferenceLayout.alignmentCenters[version] ?? []), "version \(version)")
        }
    }

    @Test(arguments: versions)
    func alignmentPatternsAreDrawnAtEveryCentre(version: Int) throws {
        let code = try Self.symbol(version: version)
        let centres = ReferenceLayout.alignmentPatterns(version: version)
        let count = ReferenceLayout.alignmentCenters[version]?.count ?? 0
        #expect(centres.count == max(0, count * count - 3))
        for centre in centres {
            for dy in -2 ... 2 {
                for dx in -2 ... 2 {
                    let expected = max(abs(dx), abs(dy)) != 1
                    #expect(code.isDark(x: centre.x + dx, y: centre.y + dy) == expected, "alignment at \(centre)")
                }
            }
        }
    }

    @Test(arguments: versions)
    func formatInformationDecodesToLevelMAndTheMaskOfEachSymbol(version: Int) throws {
        for mask in [nil] + (0 ..< 8).map(Optional.some) {
            let code = try Self.symbol(version: version, mask: mask)
            if let mask { #expect(code.mask == mask) }
            let copies = ReferenceLayout.formatCopies(code)
            #expect(copies.first == copies.second)
            let format = copies.first ^ 0b101010000010010
            #expect(ReferenceLayout.polynomialRemainder(format, divisor: 0b10100110111, valueBits: 15, divisorBits: 11) == 0)
            #expect(format >> 13 == 0b00, "level M's indicator is 00")
            #expect((format >> 10) & 7 == code.mask)
        }
    }

    @Test func formatWordOfMaskZeroIsTheXORPatternItself() throws {
        // Level M with mask 0 has all-zero data bits, so the BCH bits are zero too and only the XOR remains.
        let code = try Self.symbol(version: 3, mask: 0)
        #expect(ReferenceLayout.formatCopies(code).first == 0b101010000010010)
    }

    @Test func versionInformationOfVersion7IsTheStandardsExample() throws {
        let code = try Self.symbol(version: 7)
        #expect(ReferenceLayout.versionCopies(code).upperRight == 0b000111_110010010100)
    }

    @Test func versionInformationOfVersions7To40DecodesInBothCopies() throws {
        for version in 7 ... 40 {
            let code = try Self.symbol(version: version)
            let copies = ReferenceLayout.versionCopies(code)
            #expect(copies.upperRight == copies.lowerLeft, "version \(version)")
            #expect(copies.upperRight >> 12 == version, "version \(version)")
            #expect(ReferenceLayout.polynomialRemainder(copies.upperRight, divisor: 0b1111100100101, valueBits: 18, divisorBits: 13) == 0,
                    "version \(version): the BCH(18,6) check bits are wrong")
        }
    }

    @Test func symbolsBelowVersion7HaveNoVersionInformation() throws {
        // Those modules carry data there: two full symbols with different data differ in the area.
        for version in 1 ... 6 {
            let capacity = try #require(QRCode.byteCapacity(version: version))
            let one = try QRCode.encode(patternBytes(capacity, seed: 1), version: version, mask: 0)
            let other = try QRCode.encode(patternBytes(capacity, seed: 2), version: version, mask: 0)
            let area = (0 ..< 18).map { (x: one.size - 11 + $0 % 3, y: $0 / 3) }
            #expect(area.contains { one.isDark(x: $0.x, y: $0.y) != other.isDark(x: $0.x, y: $0.y) },
                    "version \(version)")
        }
    }
}
