// Fuzzing only: the libFuzzer entry points, linked with the instrumented modules by Tests/Fuzz/fuzz.sh.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AppleFormats
import BetaKit
import BetaServer
import Mustache
import Multipart

/// Every target of every module, by name.
let allTargets: [String: FuzzTarget] = AppleFormatsFuzz.targets
    .merging(BetaKitFuzz.targets) { first, _ in first }
    .merging(BetaServerFuzz.targets) { first, _ in first }
    .merging(MustacheFuzz.targets) { first, _ in first }
    .merging(URLEncodedFuzz.targets) { first, _ in first }
    .merging(MultipartFuzz.targets) { first, _ in first }

// Set once in LLVMFuzzerInitialize, before libFuzzer runs any input; read-only afterwards.
nonisolated(unsafe) var selectedTarget: FuzzTarget?

/// Chooses the target named by BETA_FUZZ_TARGET (`fuzz.sh list` shows the names).
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    let names = allTargets.keys.sorted()
    guard let raw = getenv("BETA_FUZZ_TARGET") else {
        fuzzReport("set BETA_FUZZ_TARGET to one of: \(names.joined(separator: " "))")
        exit(2)
    }
    let name = String(cString: raw)
    if name == "list" {
        print(names.joined(separator: "\n"))
        exit(0)
    }
    guard let target = allTargets[name] else {
        fuzzReport("unknown fuzz target \(name); choose one of: \(names.joined(separator: " "))")
        exit(2)
    }
    selectedTarget = target
    return 0
}

/// Runs the selected target on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selectedTarget?(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
