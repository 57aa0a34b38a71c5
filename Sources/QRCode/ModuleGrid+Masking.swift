extension ModuleGrid {
    /// This grid with `mask` applied to every non-function module and the format information for it drawn.
    func masked(_ mask: Int) -> ModuleGrid {
        var result = self
        result.modules.withUnsafeMutableBufferPointer { modules in
            isFunction.withUnsafeBufferPointer { isFunction in
                for i in 0 ..< size {
                    let row = i * size
                    for j in 0 ..< size where !isFunction[row + j] && MaskPattern.inverts(mask, i: i, j: j) {
                        modules[row + j] ^= 1
                    }
                }
            }
        }
        result.drawFormatInformation(FormatInformation.bits(mask: mask))
        return result
    }
}
