import Testing
import TestSupport
@testable import QRCode

/// The four penalty rules, recomputed the slow and obvious way on strings of "0"/"1".
@Suite struct MaskPenaltyTests {
    static func naivePenalty(_ rows: [String]) -> MaskPenalty {
        let size = rows.count
        let grid = rows.map(Array.init)
        let columns = (0 ..< size).map { x in String(grid.map { $0[x] }) }
        var runs = 0, finderLike = 0
        for line in rows + columns {
            // Rule 1: split into maximal runs.
            var current = "", lengths: [Int] = []
            for character in line {
                if current.last == character { current.append(character) } else {
                    if !current.isEmpty { lengths.append(current.count) }
                    current = String(character)
                }
            }
            lengths.append(current.count)
            runs += lengths.filter { $0 >= 5 }.map { 3 + ($0 - 5) }.reduce(0, +)
            // Rule 3: with the quiet zone around the line, count both 11-module shapes everywhere.
            let padded = Array("0000" + line + "0000")
            for start in 0 ... padded.count - 11 {
                let window = padded[start ..< start + 11]
                if window.elementsEqual("00001011101") { finderLike += 40 }
                if window.elementsEqual("10111010000") { finderLike += 40 }
            }
        }
        var blocks = 0
        for y in 0 ..< size - 1 {
            for x in 0 ..< size - 1 where [grid[y][x + 1], grid[y + 1][x], grid[y + 1][x + 1]].allSatisfy({ $0 == grid[y][x] }) {
                blocks += 3
            }
        }
        let dark = rows.joined().filter { $0 == "1" }.count
        let percent = Double(dark) * 100 / Double(size * size)
        let balance = 10 * Int((abs(percent - 50) / 5).rounded(.down))
        return MaskPenalty(runs: runs, blocks: blocks, finderLike: finderLike, balance: balance)
    }

    static func penalty(_ rows: [String]) -> MaskPenalty {
        MaskPenalty(modules: rows.flatMap { $0.map { $0 == "1" ? UInt8(1) : 0 } }, size: rows.count)
    }

    @Test func allDarkSymbolScoresEveryRunBlockAndTheWorstBalance() {
        let rows = [String](repeating: String(repeating: "1", count: 21), count: 21)
        #expect(Self.penalty(rows) == MaskPenalty(runs: 42 * (3 + 16), blocks: 20 * 20 * 3, finderLike: 0, balance: 100))
    }

    @Test func finderLikeShapesCountWithTheQuietZoneAsLight() {
        // A light 21x21 grid with 1011101 at the left edge of row 10 (light beyond the edge and after
        // it) and in the middle of column 12, where light modules follow on both sides.
        var grid = [[Character]](repeating: [Character](repeating: "0", count: 21), count: 21)
        for (offset, module) in "1011101".enumerated() {
            grid[10][offset] = module
            grid[7 + offset][12] = module
        }
        let penalty = Self.penalty(grid.map { String($0) })
        #expect(penalty.finderLike == 4 * 40)
        #expect(penalty == Self.naivePenalty(grid.map { String($0) }))
    }

    @Test func balanceStepsEveryFullFivePercent() {
        // 21x21 = 441 modules: 45%…55% dark (199…242) is free, then 10 points a step; 89 is 20.2%, 88 is 19.95%.
        for (darkCount, expected) in [(220, 0), (221, 0), (199, 0), (198, 10), (242, 0), (243, 10), (0, 100), (89, 50), (88, 60), (441, 100)] {
            let flat = (0 ..< 441).map { $0 < darkCount ? UInt8(1) : 0 }
            #expect(MaskPenalty(modules: flat, size: 21).balance == expected, "\(darkCount) dark")
        }
    }

    @Test(arguments: [1, 2, 5, 7, 10, 23])
    func fastScoringAgreesWithTheNaiveRulesOnEveryMask(version: Int) throws {
        let bytes = Samples.url(length: QRCode.byteCapacity(version: version)! - 3)
        for mask in 0 ..< 8 {
            let code = try QRCode.encode(bytes, version: version, mask: mask)
            let rows = Samples.rows(code)
            #expect(Self.penalty(rows) == Self.naivePenalty(rows), "version \(version) mask \(mask)")
        }
    }

    @Test func encoderKeepsTheFirstMaskWithTheLowestPenalty() throws {
        var chosen = Set<Int>()
        for length in stride(from: 1, through: 400, by: 13) {
            let bytes = Samples.url(length: length, seed: 5)
            let code = try QRCode.encode(bytes)
            let scores = try (0 ..< 8).map { try Self.naivePenalty(Samples.rows(QRCode.encode(bytes, version: code.version, mask: $0))).total }
            let best = try #require(scores.indices.min { scores[$0] < scores[$1] })
            #expect(code.mask == best, "\(length) bytes: chose mask \(code.mask), penalties \(scores)")
            chosen.insert(code.mask)
        }
        #expect(chosen.count >= 4, "the choice should depend on the data, got only masks \(chosen.sorted())")
    }
}
