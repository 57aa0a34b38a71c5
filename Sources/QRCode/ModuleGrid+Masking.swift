extension ModuleGrid {
    /// This grid with `mask` applied to every non-function module and the format information for it drawn.
    func masked(_ mask: Int) -> ModuleGrid {
        var result = self
        let size = self.size
        result.modules.withUnsafeMutableBufferPointer { modulesBuffer in
            isFunction.withUnsafeBufferPointer { isFunctionBuffer in
                // `while` over indices on raw pointers: an unoptimised build (tests, `swift run`)
                // runs range loops and buffer subscripts as calls, and masking took twice as long.
                guard let modules = modulesBuffer.baseAddress, let isFunction = isFunctionBuffer.baseAddress else { return }
                var i = 0, index = 0
                while i < size {
                    var j = 0
                    while j < size {
                        if !isFunction[index] && MaskPattern.inverts(mask, i: i, j: j) { modules[index] ^= 1 }
                        j &+= 1
                        index &+= 1
                    }
                    i &+= 1
                }
            }
        }
        result.drawFormatInformation(FormatInformation.bits(mask: mask))
        return result
    }
}
