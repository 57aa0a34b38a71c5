import QRCode
import TestSupport

enum Samples {
    /// A tester-page-like URL of exactly `length` bytes (at least 1): the scheme and host, then
    /// path characters drawn from the URL-safe set by a fixed pseudo-random sequence.
    static func url(length: Int, seed: UInt32 = 11) -> [UInt8] {
        let prefix = Array("https://beta.example.com/t/".utf8)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~/?=&%".utf8)
        let tail = patternBytes(max(0, length - prefix.count), seed: seed &+ UInt32(length)).map { alphabet[Int($0) % alphabet.count] }
        return Array((prefix + tail).prefix(length))
    }

    /// Every byte capacity, version 1 first.
    static let capacities: [Int] = (1 ... 40).compactMap(QRCode.byteCapacity(version:))

    /// The module grid of `code` as rows of "0"/"1", the shape segno prints.
    static func rows(_ code: QRCode) -> [String] {
        // Built from UTF-8 bytes: a debug build makes Characters into a String many times slower.
        (0 ..< code.size).map { y in
            String(decoding: (0 ..< code.size).map { code.isDark(x: $0, y: y) ? UInt8(ascii: "1") : UInt8(ascii: "0") }, as: UTF8.self)
        }
    }
}
