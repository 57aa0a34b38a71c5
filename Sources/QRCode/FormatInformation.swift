/// The 15-bit format information: error correction level M (indicator 00) and the mask in 5 data
/// bits, protected by the BCH(15,5) code with generator x¹⁰+x⁸+x⁵+x⁴+x²+x+1 (0x537), then XORed
/// with 0x5412 so that no format word is all light.
enum FormatInformation {
    /// Level M's two-bit indicator.
    static let levelM = 0b00

    static func bits(mask: Int) -> Int {
        let data = levelM << 3 | mask
        return (data << 10 | BCH.remainder(data << 10, generator: 0x537)) ^ 0x5412
    }
}

/// The 18-bit version information of versions 7–40: the 6-bit version number protected by the
/// BCH(18,6) code with generator x¹²+x¹¹+x¹⁰+x⁹+x⁸+x⁵+x²+1 (0x1F25).
enum VersionInformation {
    static func bits(version: Int) -> Int {
        version << 12 | BCH.remainder(version << 12, generator: 0x1F25)
    }
}

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
