/// A symbol under construction: module colours (1 dark, 0 light, row-major) and which modules
/// belong to function patterns, which masking leaves alone.
struct ModuleGrid {
    let size: Int
    var modules: [UInt8]
    var isFunction: [Bool]

    /// A grid with every function pattern of `version` drawn; the format information areas are
    /// reserved (and light) until `drawFormatInformation(mask:)` fills them.
    init(version: QRVersion) {
        size = version.size
        modules = [UInt8](repeating: 0, count: size * size)
        isFunction = [Bool](repeating: false, count: size * size)
        drawTimingPatterns()
        drawFinderPattern(centerX: 3, centerY: 3)
        drawFinderPattern(centerX: size - 4, centerY: 3)
        drawFinderPattern(centerX: 3, centerY: size - 4)
        drawAlignmentPatterns(version.alignmentCenters)
        drawFormatInformation(FormatInformation.bits(mask: 0))  // reserves the areas; redrawn per mask
        drawVersionInformation(version.number)
    }

    subscript(x: Int, y: Int) -> UInt8 { modules[y * size + x] }

    /// Sets a module and marks it as part of a function pattern.
    mutating func setFunction(x: Int, y: Int, dark: Bool) {
        modules[y * size + x] = dark ? 1 : 0
        isFunction[y * size + x] = true
    }

    /// Row 6 and column 6 alternate dark and light, starting dark at the finder separators; the
    /// finder patterns drawn afterwards cover the ends.
    private mutating func drawTimingPatterns() {
        for index in 0 ..< size {
            setFunction(x: 6, y: index, dark: index % 2 == 0)
            setFunction(x: index, y: 6, dark: index % 2 == 0)
        }
    }

    /// The 7x7 finder with its light separator ring, clipped at the symbol's edge.
    private mutating func drawFinderPattern(centerX: Int, centerY: Int) {
        for dy in -4 ... 4 {
            for dx in -4 ... 4 {
                let x = centerX + dx, y = centerY + dy
                guard (0 ..< size).contains(x), (0 ..< size).contains(y) else { continue }
                let ring = max(abs(dx), abs(dy))  // 0 centre … 4 separator
                setFunction(x: x, y: y, dark: ring != 2 && ring != 4)
            }
        }
    }

    /// A 5x5 alignment pattern at every pair of centres except the three that fall on finders.
    private mutating func drawAlignmentPatterns(_ centers: [Int]) {
        guard let first = centers.first, let last = centers.last else { return }
        for y in centers {
            for x in centers {
                if (x == first && y == first) || (x == first && y == last) || (x == last && y == first) { continue }
                for dy in -2 ... 2 {
                    for dx in -2 ... 2 {
                        setFunction(x: x + dx, y: y + dy, dark: max(abs(dx), abs(dy)) != 1)
                    }
                }
            }
        }
    }

    /// The 15 format bits in both copies, and the dark module beside the lower-left finder.
    /// Bit 0 is the least significant; each copy runs from bit 0 to bit 14 as ISO/IEC 18004 places them.
    mutating func drawFormatInformation(_ bits: Int) {
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 != 0 }
        // Around the upper-left finder: up column 8 (skipping the timing row), then left along row 8.
        for index in 0 ... 5 { setFunction(x: 8, y: index, dark: bit(index)) }
        setFunction(x: 8, y: 7, dark: bit(6))
        setFunction(x: 8, y: 8, dark: bit(7))
        setFunction(x: 7, y: 8, dark: bit(8))
        for index in 9 ..< 15 { setFunction(x: 14 - index, y: 8, dark: bit(index)) }
        // Split between the other two finders: row 8 from the right edge, then column 8 to the bottom.
        for index in 0 ..< 8 { setFunction(x: size - 1 - index, y: 8, dark: bit(index)) }
        for index in 8 ..< 15 { setFunction(x: 8, y: size - 15 + index, dark: bit(index)) }
        setFunction(x: 8, y: size - 8, dark: true)
    }

    /// Versions 7 and up carry their number in two 6x3 blocks beside the upper-right and lower-left finders.
    private mutating func drawVersionInformation(_ version: Int) {
        guard version >= 7 else { return }
        let bits = VersionInformation.bits(version: version)
        for index in 0 ..< 18 {
            let dark = (bits >> index) & 1 != 0
            let along = index / 3, across = size - 11 + index % 3
            setFunction(x: across, y: along, dark: dark)
            setFunction(x: along, y: across, dark: dark)
        }
    }

    /// Places the codewords' bits (most significant first) in the zigzag order of ISO/IEC 18004:
    /// two-module columns from the right edge, alternately upwards and downwards, skipping the
    /// vertical timing column and every function module. Modules past the last codeword are the
    /// remainder bits, left light. Returns how many modules were free, for the caller to check.
    @discardableResult
    mutating func placeCodewords(_ codewords: [UInt8]) -> Int {
        let size = self.size
        let bitCount = codewords.count &* 8
        var free = 0
        // `while` loops on raw pointers and masking shifts: an unoptimised build (tests, `swift run`)
        // runs `stride`, array subscripts and the generic `>>` as unspecialised calls, twenty times slower.
        codewords.withUnsafeBufferPointer { codewordsBuffer in
            modules.withUnsafeMutableBufferPointer { modulesBuffer in
                isFunction.withUnsafeBufferPointer { isFunctionBuffer in
                    guard let modules = modulesBuffer.baseAddress, let isFunction = isFunctionBuffer.baseAddress else { return }
                    let codewords = codewordsBuffer.baseAddress
                    var bitIndex = 0
                    var right = size &- 1
                    while right >= 1 {
                        if right == 6 { right = 5 }  // column 6 is timing: the pair shifts left by one
                        let upwards = ((right &+ 1) & 2) == 0
                        var step = 0
                        while step < size {
                            let y = upwards ? size &- 1 &- step : step
                            var x = right
                            while x >= right &- 1 {
                                let index = y &* size &+ x
                                if !isFunction[index] {
                                    free &+= 1
                                    if bitIndex < bitCount, let codewords {
                                        modules[index] = (codewords[bitIndex &>> 3] &>> (7 &- UInt8(truncatingIfNeeded: bitIndex & 7))) & 1
                                        bitIndex &+= 1
                                    }
                                }
                                x &-= 1
                            }
                            step &+= 1
                        }
                        right &-= 2
                    }
                }
            }
        }
        return free
    }
}
