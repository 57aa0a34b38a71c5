import Testing
import TestSupport
@testable import QRCode

/// Every length the encoder accepts, read back by the tests' own decoder (`ReferenceDecoder`),
/// which also checks every block's Reed–Solomon syndromes and the padding.
@Suite struct RoundTripTests {
    @Test func everyLengthUpTo400DecodesToTheSameBytes() throws {
        for length in 0 ... 400 {
            try expectRoundTrip(patternBytes(length, seed: UInt32(length)))
        }
    }

    @Test func lengthsAroundEveryCapacityDecodeInEveryVersion() throws {
        var lengths = Set<Int>()
        for capacity in Samples.capacities {
            lengths.formUnion([capacity - 2, capacity - 1, capacity, capacity + 1].filter { $0 <= QRCode.maximumByteCount })
        }
        for length in lengths.sorted() {
            try expectRoundTrip(patternBytes(length, seed: UInt32(length) &* 31))
        }
    }

    @Test func everyByteValueSurvives() throws {
        try expectRoundTrip((0 ... 255).map(UInt8.init))
        try expectRoundTrip([UInt8](repeating: 0, count: 100))
        try expectRoundTrip([UInt8](repeating: 0xFF, count: 100))
        try expectRoundTrip(Array("日本語のテキスト and emoji 🎉".utf8))
    }

    private func expectRoundTrip(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let code = try QRCode.encode(bytes)
        let decoded = try ReferenceDecoder.decode(code)
        #expect(decoded == ReferenceDecoder.Decoded(bytes: bytes, errorCorrectionLevel: 0, mask: code.mask),
                "\(bytes.count) bytes in version \(code.version)", sourceLocation: sourceLocation)
    }
}
