import Foundation
import Testing
import AppleFormats
@testable import BetaKit
import TestSupport

/// Sentry's CrashProbe dSYMs: real Apple-toolchain DWARF for arm64 and armv7.
@Suite struct SymbolicationCrashProbeTests {
    static let dSYMs = [
        "crash/crashprobe/arm64-CrashProbeiOS.app.dSYM", "crash/crashprobe/arm64-CrashLibiOS.framework.dSYM",
        "crash/crashprobe/armv7-CrashProbeiOS.app.dSYM", "crash/crashprobe/armv7-CrashLibiOS.framework.dSYM",
    ]

    @Test(.enabled(if: SharedFixtures.available && LLVMSymbolizer.available), arguments: dSYMs)
    func sampledAddressesMatchLLVMSymbolizer(_ dSYM: String) async throws {
        let locator = try DSYMPathLocator(paths: [SharedFixtures.url(dSYM).path])
        let file = try #require(locator.files.values.first)
        let cache = try SymbolIndexCache(directory: try SymbolFixtures.temporaryDirectory())
        let index = try cache.index(for: file)
        let text = try Self.textSection(file)
        let step: UInt64 = file.architecture.is64Bit ? 36 : 18
        let addresses = Array(stride(from: text.lowerBound, to: text.upperBound, by: Int(step)))
        let expected = try LLVMSymbolizer.symbolize(object: file.path, architecture: file.architecture.name, addresses: addresses)
        try #require(expected.count == addresses.count)
        var mismatches: [String] = []
        for (address, frames) in zip(addresses, expected) {
            let ours = SymbolFixtures.frames(try index.lookup(address: address))
            if ours != frames { mismatches.append("0x\(String(address, radix: 16)): expected \(frames), got \(ours)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(addresses.count) differ:\n\(mismatches.prefix(10).joined(separator: "\n"))")
    }

    static func textSection(_ file: SymbolFile) throws -> Range<UInt64> {
        let mapped = try MappedFile(path: file.path)
        return try mapped.withBytes { bytes in
            let fat = try MachOFile(bytes: bytes)
            let image = try MachOImage(bytes: MachOFile.bytes(of: try fat.slice(choosing: file.architecture), in: bytes))
            let text = try #require(image.section(named: "__text", segment: "__TEXT"))
            return text.address ..< text.address + text.size
        }
    }
}
