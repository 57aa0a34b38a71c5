// Speed of the Multipart parser on large parts (compiled with Sources/Multipart by run.sh).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Counting: MultipartPartConsumer {
    var count = 0
    mutating func consume(_ bytes: UnsafeRawBufferPointer) { count += bytes.count }
    mutating func finish() -> Int { count }
    mutating func discard() {}
}

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func maxRSSMegabytes() -> Double {
    var usage = rusage()
    #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    return Double(usage.ru_maxrss) / 1_048_576
    #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
    #endif
}

/// `value` with `digits` decimals (no Foundation here).
func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    let whole = scaled / Int(scale)
    let fraction = String(scaled % Int(scale))
    return digits == 0 ? String(whole) : "\(whole)." + String(repeating: "0", count: digits - fraction.count) + fraction
}

let arguments = CommandLine.arguments
let totalMB = arguments.count > 1 ? Int(arguments[1]) ?? 512 : 512
let spoolDirectory = arguments.count > 2 ? arguments[2] : "/tmp"
let chunkSize = 256 * 1024
let boundary = "------------------------d74496d66958873e"
let delimiter = Array("\r\n--\(boundary)".utf8)

/// 64 MiB of content of one kind, fed repeatedly; never contains the delimiter.
func content(_ kind: String) -> [UInt8] {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    var bytes = [UInt8](repeating: 0, count: 64 << 20)
    switch kind {
    case "binary":
        for index in bytes.indices {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            bytes[index] = UInt8(truncatingIfNeeded: state >> 24)
        }
    default:
        // Crash-log-like text: CRLF lines of 60 to 100 characters, some starting with "--".
        let line = Array("  0   libswiftCore.dylib   0x000000018f2c1234 $ss17_assertionFailure + 244".utf8)
        var index = 0
        while index < bytes.count {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            let length = min(bytes.count - index, 60 + Int(state % 40))
            for offset in 0..<length { bytes[index + offset] = offset < length - 2 ? line[offset % line.count] : (offset == length - 2 ? 0x0D : 0x0A) }
            if state % 7 == 0, length > 4 { bytes[index] = UInt8(ascii: "-"); bytes[index + 1] = UInt8(ascii: "-") }
            index += length
        }
    }
    return bytes
}

func run<C: MultipartPartConsumer>(_ label: String, _ block: [UInt8], makeConsumer: @escaping (MultipartPartHead) throws -> C) throws {
    var parser = MultipartParser(boundary: try MultipartBoundary(boundary),
                                 limits: MultipartLimits(bytesPerPart: Int64(totalMB + 1) << 20, totalBytes: Int64(totalMB + 1) << 20),
                                 makeConsumer: makeConsumer)
    let head = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"ipa\"; filename=\"Big.ipa\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
    let start = now()
    try parser.feed(head)
    var fed = 0
    let target = totalMB << 20
    try block.withUnsafeBytes { bytes in
        while fed < target {
            var offset = 0
            while offset < bytes.count && fed < target {
                let end = min(bytes.count, offset + chunkSize, offset + target - fed)
                try parser.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
                fed += end - offset
                offset = end
            }
        }
    }
    try parser.feed(delimiter + Array("--\r\n".utf8))
    let parts = try parser.finish()
    let seconds = now() - start
    let gbPerSecond = Double(fed) / seconds / 1e9
    print("\(label): \(totalMB) MiB in \(fixed(seconds, 3)) s = \(fixed(gbPerSecond, 2)) GB/s, \(parts.count) part, max RSS \(fixed(maxRSSMegabytes(), 0)) MB")
}

/// The floor: memchr over the same bytes for CR, as the parser's scan does.
func memchrFloor(_ label: String, _ block: [UInt8]) {
    let start = now()
    var hits = 0
    var fed = 0
    block.withUnsafeBytes { bytes in
        guard let base = bytes.baseAddress else { return }
        while fed < totalMB << 20 {
            var position = 0
            while position < bytes.count, let hit = memchr(base + position, 0x0D, bytes.count - position) {
                hits += 1
                position = base.distance(to: UnsafeRawPointer(hit)) + 1
            }
            fed += bytes.count
        }
    }
    let seconds = now() - start
    print("\(label): \(fixed(Double(fed) / seconds / 1e9, 2)) GB/s (\(hits) CRs)")
}

/// The floor for spooling: write(2) of the same bytes in the same chunks to a new file there.
func writeFloor(_ block: [UInt8]) {
    let path = spoolDirectory + "/write-floor.bin"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return }
    defer { close(fd); unlink(path) }
    let start = now()
    var fed = 0
    block.withUnsafeBytes { bytes in
        guard let base = bytes.baseAddress else { return }
        while fed < totalMB << 20 {
            var offset = 0
            while offset < bytes.count && fed < totalMB << 20 {
                let count = min(chunkSize, bytes.count - offset)
                guard write(fd, base + offset, count) == count else { return }
                offset += count
                fed += count
            }
        }
    }
    let seconds = now() - start
    print("write(2) floor to \(spoolDirectory): \(totalMB) MiB in \(fixed(seconds, 3)) s = \(fixed(Double(fed) / seconds / 1e9, 2)) GB/s")
}

do {
    for kind in ["binary", "text"] {
        let block = content(kind)
        memchrFloor("memchr floor, \(kind)", block)
        try run("parser, \(kind), counting consumer", block) { _ in Counting() }
    }
    let block = content("binary")
    print("max RSS with the 64 MiB content block in memory: \(fixed(maxRSSMegabytes(), 0)) MB")
    writeFloor(block)
    try run("parser, binary, SpoolingConsumer to \(spoolDirectory)", block) { _ in SpoolingConsumer(directory: spoolDirectory) }
} catch {
    print("failed: \(error)")
    exit(1)
}
