/// Damaged copies of a file for robustness sweeps: every `step`-th truncation, a byte flipped at
/// every `step`-th position, and a run cut from the middle. Each comes with a label naming the
/// damage, so a failing expectation says which variant broke.
public func damagedVariants(of original: [UInt8], count: Int = 80) -> [(label: String, bytes: [UInt8])] {
    guard !original.isEmpty else { return [] }
    let step = Swift.max(1, original.count / count)
    var variants: [(String, [UInt8])] = []
    for length in stride(from: 0, to: original.count, by: step) {
        variants.append(("truncated to \(length) bytes", Array(original[..<length])))
    }
    for position in stride(from: 0, to: original.count, by: step) {
        var flipped = original
        flipped[position] ^= 0x5a
        variants.append(("byte \(position) flipped", flipped))
    }
    var cut = original
    cut.removeSubrange(original.count / 3 ..< original.count / 3 + Swift.min(200, original.count / 3))
    variants.append(("a run cut from the middle", cut))
    return variants
}
