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
