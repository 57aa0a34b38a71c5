extension ModuleGrid {
    /// This grid with `mask` applied to every non-function module and the format information for it drawn.
    func masked(_ mask: Int) -> ModuleGrid {
        // Every pattern repeats every 12 rows and columns (its conditions are taken modulo 2, 3, 4
        // and 6), so a 12x12 tile of `MaskPattern.inverts` answers for the whole symbol. That keeps
        // the call and its divisions out of the per-module loop, which an unoptimised build (tests,
        // `swift run`) neither inlines nor strength-reduces; for the same reason the loops are
        // `while` loops on raw pointers rather than range loops and array subscripts.
        var tile = [UInt8](repeating: 0, count: 12 * 12)
        for i in 0 ..< 12 {
            for j in 0 ..< 12 where MaskPattern.inverts(mask, i: i, j: j) { tile[i * 12 + j] = 1 }
        }
        var result = self
        let size = self.size
        result.modules.withUnsafeMutableBufferPointer { modulesBuffer in
            isFunction.withUnsafeBufferPointer { isFunctionBuffer in
                tile.withUnsafeBufferPointer { tileBuffer in
                    guard let modules = modulesBuffer.baseAddress, let isFunction = isFunctionBuffer.baseAddress,
                          let tile = tileBuffer.baseAddress else { return }
                    var i = 0, index = 0
                    while i < size {
                        let tileRow = tile + (i % 12) &* 12
                        var j = 0, tileColumn = 0
                        while j < size {
                            if !isFunction[index] { modules[index] ^= tileRow[tileColumn] }
                            tileColumn = tileColumn == 11 ? 0 : tileColumn &+ 1
                            j &+= 1
                            index &+= 1
                        }
                        i &+= 1
                    }
                }
            }
        }
        result.drawFormatInformation(FormatInformation.bits(mask: mask))
        return result
    }
}
