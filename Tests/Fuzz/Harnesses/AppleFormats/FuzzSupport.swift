// Fuzzing only: compiled into the AppleFormats module by Tests/Fuzz/fuzz.sh, never by SwiftPM.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One fuzz target: it gets the fuzzer's bytes and must return normally for every input.
/// A trap, a hang or a memory blow-up inside it is a bug; so is a failed `fuzzCheck`.
public typealias FuzzTarget = @Sendable (UnsafeRawBufferPointer) -> Void

/// Stops the process (so libFuzzer records the input) when a property every input must keep is broken.
public func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    guard !condition else { return }
    fuzzReport("fuzzCheck failed at \(file):\(line): \(message())")
    abort()
}

/// Writes one line to standard error.
public func fuzzReport(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// Keeps a computed value alive so the optimiser cannot drop the work that produced it.
@inline(never) @_optimize(none)
public func fuzzConsume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Deterministic pseudo-random numbers derived from the input, for choosing how to split it.
public struct FuzzSplitter {
    var state: UInt64

    /// Seeds from the input itself, so a crash reproduces from the input file alone.
    public init(_ bytes: UnsafeRawBufferPointer) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        for byte in bytes.prefix(64) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        state = hash | 1
    }

    /// The next piece length, between 1 and `limit`.
    public mutating func next(_ limit: Int) -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(state % UInt64(max(1, limit))) + 1
    }
}

/// The AppleFormats targets by name.
public enum AppleFormatsFuzz {
    /// Every target of this module.
    public static let targets: [String: FuzzTarget] = [
        "macho": machO,
        "dwarf": dwarf,
        "codesign": codeSignature,
        "demangle": demangle,
        "plist": propertyList,
        "der": der,
        "profile": profile,
        "crash": crashReport,
        "devices-tsv": devicesTSV,
        "devices-plist": devicesPlist,
        "udid": udid,
        "zip": zipArchive,
        "png": png,
        "recognize": recognize,
        "kscrash": kscrash,
        "kscrash-batch": kscrashBatch,
        "ips-json": ipsJSON,
        "json": json,
        "enrollment": enrollment,
        "mobileconfig": mobileconfig,
        "hockeyapp": hockeyApp,
        "jetsam": jetsam,
    ]
}
