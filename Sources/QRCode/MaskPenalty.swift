/// The penalty ISO/IEC 18004 gives a masked symbol; the encoder keeps the mask with the lowest
/// total. Every rule is one pass over the modules, so scoring all eight masks stays linear in the
/// symbol's area.
struct MaskPenalty: Equatable, Sendable {
    /// Rule 1: each run of five or more same-coloured modules in a row or column scores 3, plus 1
    /// for every module beyond five.
    var runs = 0
    /// Rule 2: each 2x2 block of one colour scores 3 (overlapping blocks each count).
    var blocks = 0
    /// Rule 3: each dark-light-dark-dark-dark-light-dark sequence in a row or column with four light
    /// modules directly before or after it scores 40; modules outside the symbol are the light quiet
    /// zone, and a sequence with light on both sides counts once per side.
    var finderLike = 0
    /// Rule 4: 10 for every full 5% by which the dark share departs from 50%.
    var balance = 0

    var total: Int { runs + blocks + finderLike + balance }

    /// The penalty of `modules` (row-major, 1 dark), `size` modules a side.
    init(modules: [UInt8], size: Int) {
        modules.withUnsafeBufferPointer { grid in
            for index in 0 ..< size {
                scoreLine(grid, start: index * size, step: 1, count: size)
                scoreLine(grid, start: index, step: size, count: size)
            }
            var dark = 0
            for y in 0 ..< size {
                let row = y * size
                for x in 0 ..< size {
                    dark += Int(grid[row + x])
                    guard x + 1 < size && y + 1 < size else { continue }
                    let colour = grid[row + x]
                    if colour == grid[row + x + 1] && colour == grid[row + size + x] && colour == grid[row + size + x + 1] {
                        blocks += 3
                    }
                }
            }
            let total = size * size
            balance = 10 * (abs(dark * 20 - total * 10) / total)
        }
    }

    init(runs: Int, blocks: Int, finderLike: Int, balance: Int) {
        self.runs = runs
        self.blocks = blocks
        self.finderLike = finderLike
        self.balance = balance
    }

    /// Rules 1 and 3 along one row or column.
    private mutating func scoreLine(_ grid: UnsafeBufferPointer<UInt8>, start: Int, step: Int, count: Int) {
        // The last 11 modules seen, newest in bit 0; the four light quiet-zone modules before the
        // line are the zeros it starts with.
        var window: UInt16 = 0
        var runColour = grid[start]
        var runLength = 0
        for index in 0 ..< count {
            let colour = grid[start + index * step]
            if colour == runColour {
                runLength += 1
            } else {
                if runLength >= 5 { runs += runLength - 2 }
                runColour = colour
                runLength = 1
            }
            window = (window << 1 | UInt16(colour)) & 0x7FF
            if window == Self.lightThenFinder || window == Self.finderThenLight { finderLike += 40 }
        }
        if runLength >= 5 { runs += runLength - 2 }
        for _ in 0 ..< 4 {  // the quiet zone after the line
            window = (window << 1) & 0x7FF
            if window == Self.finderThenLight { finderLike += 40 }
        }
    }

    /// 0000 1011101 and 1011101 0000, oldest module in the highest bit.
    static let lightThenFinder: UInt16 = 0b000_0101_1101
    static let finderThenLight: UInt16 = 0b101_1101_0000
}
