import Foundation
import Testing
import AppleFormats
@testable import BetaKit

@Suite struct SymbolicationFidelityTests {
    @Test(arguments: SymbolFixtures.variants)
    func everyInstructionMatchesLLVMSymbolizerFrameForFrame(_ variant: SymbolFixtures.Variant) async throws {
        let cache = try SymbolIndexCache(directory: try SymbolFixtures.temporaryDirectory())
        let index = try cache.index(for: try SymbolFixtures.symbolFile(variant))
        let expected = try SymbolFixtures.expected(variant)
        #expect(expected.count > 100)
        var mismatches: [String] = []
        for (address, frames) in expected {
            let ours = SymbolFixtures.frames(try index.lookup(address: address))
            if ours != frames {
                mismatches.append("0x\(String(address, radix: 16)): expected \(frames), got \(ours)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(expected.count) addresses differ:\n\(mismatches.prefix(20).joined(separator: "\n"))")
    }
}
