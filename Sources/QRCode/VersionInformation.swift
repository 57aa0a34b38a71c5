/// The 18-bit version information of versions 7–40: the 6-bit version number protected by the
/// BCH(18,6) code with generator x¹²+x¹¹+x¹⁰+x⁹+x⁸+x⁵+x²+1 (0x1F25).
enum VersionInformation {
    static func bits(version: Int) -> Int {
        version << 12 | BCH.remainder(version << 12, generator: 0x1F25)
    }
}
