#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process environment as a dictionary, read straight from `environ`: cheaper at start-up
/// than `ProcessInfo`, which every betactl run would otherwise pay for.
enum ProcessEnvironment {
    static func current() -> [String: String] {
        var result: [String: String] = [:]
        result.reserveCapacity(64)
        // Optional on purpose: Darwin declares `environ` implicitly unwrapped.
        let start: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        guard var entry = start else { return result }
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            // The first "=" ends the name; values may contain more of them.
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                result[String(text[..<equals])] = String(text[text.utf8.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}
