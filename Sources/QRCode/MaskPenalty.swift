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

    /// The penalty of `modules` (row-major, 1 dark, 0 light), `size` modules a side.
    init(modules: [UInt8], size: Int) {
        precondition(size > 0 && modules.count == size * size, "\(modules.count) modules do not make a \(size)x\(size) symbol")
        self = modules.withUnsafeBufferPointer { Self.score($0.baseAddress!, size: size) }
    }

    init(runs: Int, blocks: Int, finderLike: Int, balance: Int) {
        self.runs = runs
        self.blocks = blocks
        self.finderLike = finderLike
        self.balance = balance
    }

    // The loops are written for unoptimised builds too (tests, `swift run`), which neither inline
    // nor specialise: `while` over `Int` indices on a raw pointer, locals rather than stored
    // properties, masking shifts (`&<<`), and arithmetic instead of branches on module colours,
    // which the data makes unpredictable. Written with ranges, buffer subscripts and colour
    // comparisons, scoring took 2.4 times as long there.

    /// All four rules over the `size` x `size` modules at `grid`.
    private static func score(_ grid: UnsafePointer<UInt8>, size: Int) -> MaskPenalty {
        var runs = 0, finderLike = 0
        var index = 0
        while index < size {
            scoreLine(grid + index &* size, step: 1, count: size, runs: &runs, finderLike: &finderLike)
            scoreLine(grid + index, step: size, count: size, runs: &runs, finderLike: &finderLike)
            index &+= 1
        }
        var blocks = 0, dark = 0
        var y = 0
        while y < size {
            let row = grid + y &* size
            var x = 0
            while x < size {
                dark &+= Int(row[x])
                x &+= 1
            }
            if y &+ 1 < size {
                let below = row + size
                x = 0
                while x &+ 1 < size {
                    // Four modules of one colour add up to 0 or 4.
                    let sum = Int(row[x]) &+ Int(row[x &+ 1]) &+ Int(below[x]) &+ Int(below[x &+ 1])
                    if sum & 3 == 0 { blocks &+= 3 }
                    x &+= 1
                }
            }
            y &+= 1
        }
        let total = size &* size
        let balance = 10 &* (abs(dark &* 20 &- total &* 10) / total)
        return MaskPenalty(runs: runs, blocks: blocks, finderLike: finderLike, balance: balance)
    }

    /// Rules 1 and 3 along one row or column: `count` modules from `line`, `step` apart.
    private static func scoreLine(_ line: UnsafePointer<UInt8>, step: Int, count: Int, runs: inout Int, finderLike: inout Int) {
        let lightThenFinder = Self.lightThenFinder, finderThenLight = Self.finderThenLight
        // The last 11 modules seen, newest in bit 0; the four light quiet-zone modules before the
        // line are the zeros it starts with.
        var window = 0
        var previous = Int(line[0])
        var runLength = 0
        var index = 0, offset = 0
        while index < count {
            let colour = Int(line[offset])
            // Without a branch on the colour, which data makes unpredictable: the run restarts at 1
            // on a change (`change &- 1` is then 0) and grows by 1 otherwise (it is then all ones).
            let change = colour ^ previous
            runLength = (runLength & (change &- 1)) &+ 1
            // A run of n >= 5 scores n - 2: 3 at its fifth module and 1 for each one after.
            if runLength >= 5 { runs &+= runLength == 5 ? 3 : 1 }
            previous = colour
            window = (window &<< 1 | colour) & 0x7FF
            if window == lightThenFinder || window == finderThenLight { finderLike &+= 40 }
            index &+= 1
            offset &+= step
        }
        var quiet = 0
        while quiet < 4 {  // the quiet zone after the line
            window = (window &<< 1) & 0x7FF
            if window == finderThenLight { finderLike &+= 40 }
            quiet &+= 1
        }
    }

    /// 0000 1011101 and 1011101 0000, oldest module in the highest bit.
    static let lightThenFinder = 0b000_0101_1101
    static let finderThenLight = 0b101_1101_0000
}
