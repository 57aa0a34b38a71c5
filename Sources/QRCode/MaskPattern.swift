/// The eight data mask patterns of ISO/IEC 18004: a module at row `i`, column `j` is inverted where
/// the pattern's condition holds. Function modules are never masked.
enum MaskPattern {
    static let all: Range<Int> = 0 ..< 8

    /// Whether mask `mask` inverts the module at row `i`, column `j`.
    @inline(__always)
    static func inverts(_ mask: Int, i: Int, j: Int) -> Bool {
        switch mask {
        case 0: return (i + j) % 2 == 0
        case 1: return i % 2 == 0
        case 2: return j % 3 == 0
        case 3: return (i + j) % 3 == 0
        case 4: return (i / 2 + j / 3) % 2 == 0
        case 5: return (i * j) % 2 + (i * j) % 3 == 0
        case 6: return ((i * j) % 2 + (i * j) % 3) % 2 == 0
        default: return ((i + j) % 2 + (i * j) % 3) % 2 == 0
        }
    }
}
