/// Polynomial remainder over GF(2), as the BCH codes of the format and version information use.
enum BCH {
    static func remainder(_ value: Int, generator: Int) -> Int {
        let degree = generator.bitWidth - generator.leadingZeroBitCount - 1
        var rest = value
        while rest.bitWidth - rest.leadingZeroBitCount - 1 >= degree {
            rest ^= generator << (rest.bitWidth - rest.leadingZeroBitCount - 1 - degree)
        }
        return rest
    }
}
