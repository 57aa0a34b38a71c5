import Testing
import TestSupport
@testable import QRCode

/// Module-by-module comparison with segno, an independent encoder, run with the same version and
/// mask; segno's own version choice checks our capacities.
@Suite(.serialized) struct SegnoOracleTests {
    @Test func segnoIsInstalledByInstallDeps() {
        #expect(Segno.isInstalled, "no segno venv at \(Segno.python); run .ci/install-deps")
    }

    @Test(.enabled(if: Segno.isInstalled))
    func everyVersionAndMaskMatchesSegnoModuleForModule() async throws {
        // Each version filled to capacity, under every mask: every codeword, block and module position is data.
        var cases: [Segno.Case] = []
        var ours: [QRCode] = []
        for version in 1 ... 40 {
            let bytes = patternBytes(Samples.capacities[version - 1], seed: UInt32(version))
            for mask in 0 ..< 8 {
                ours.append(try QRCode.encode(bytes, version: version, mask: mask))
                cases.append(Segno.Case(bytes, version: version, mask: mask))
            }
        }
        try await compare(ours, with: Segno.make(cases))
    }

    @Test(.enabled(if: Segno.isInstalled))
    func shortDataInEveryVersionMatchesSegnoPaddingIncluded() async throws {
        // Mostly pad codewords; an empty message too.
        var cases: [Segno.Case] = []
        var ours: [QRCode] = []
        for version in 1 ... 40 {
            let bytes = Samples.url(length: version == 1 ? 0 : version * 3)
            ours.append(try QRCode.encode(bytes, version: version, mask: version % 8))
            cases.append(Segno.Case(bytes, version: version, mask: version % 8))
        }
        try await compare(ours, with: Segno.make(cases))
    }

    @Test(.enabled(if: Segno.isInstalled))
    func automaticVersionMatchesSegnoOnBothSidesOfEveryCapacity() async throws {
        var lengths: [Int] = [0, 1]
        for capacity in Samples.capacities {
            lengths += [capacity - 1, capacity, capacity + 1]
        }
        lengths = lengths.filter { $0 <= QRCode.maximumByteCount }
        // Only the version is compared, and segno picks it from the length before masking: forcing
        // mask 0 spares its pure-Python scoring of all eight masks, most of this test's time.
        let symbols = try await Segno.make(lengths.map { Segno.Case(Samples.url(length: $0), mask: 0) })
        for (length, symbol) in zip(lengths, symbols) {
            let code = try QRCode.encode(Samples.url(length: length))
            #expect(code.version == symbol.version, "\(length) bytes: version \(code.version), segno chose \(symbol.version)")
        }
    }

    private func compare(_ ours: [QRCode], with theirs: [Segno.Symbol], sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(ours.count == theirs.count)
        for (code, symbol) in zip(ours, theirs) {
            #expect(symbol.error == "M" && symbol.version == code.version && symbol.mask == code.mask, sourceLocation: sourceLocation)
            let rows = Samples.rows(code)
            guard rows != symbol.rows else { continue }
            let differing = zip(rows, symbol.rows).enumerated().flatMap { y, pair in
                zip(pair.0, pair.1).enumerated().compactMap { x, modules in modules.0 == modules.1 ? nil : "(\(x),\(y))" }
            }
            Issue.record("version \(code.version) mask \(code.mask): \(differing.count) modules differ from segno, first \(differing.prefix(8))",
                         sourceLocation: sourceLocation)
        }
    }
}
