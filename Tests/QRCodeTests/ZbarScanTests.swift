import Foundation
import Testing
import TestSupport
@testable import QRCode

/// A real reader, zbarimg, decodes what the renderers draw.
@Suite struct ZbarScanTests {
    @Test func everyURLLengthFrom1To1000ScansBackFromThePNG() async throws {
        let directory = try TemporaryDirectory("qrcode-zbar")
        var expected: [String: String] = [:]
        for length in 1 ... 1000 {
            let url = Samples.url(length: length)
            let code = try QRCode.encode(url)
            // Scales 2 to 4 so more than one is read back.
            let path = try directory.write("\(length).png", code.png(scale: 2 + length % 3))
            expected[path] = String(decoding: url, as: UTF8.self)
        }
        // Two zbarimg runs side by side halve the wall time on two cores.
        let paths = expected.keys.sorted()
        let half = paths.count / 2
        async let first = Zbar.decodeText(Array(paths[..<half]))
        async let second = Zbar.decodeText(Array(paths[half...]))
        let decoded = try await first.merging(second) { one, _ in one }
        var failures: [String] = []
        for (path, text) in expected where decoded[path] != [text] {
            failures.append("\(URL(fileURLWithPath: path).lastPathComponent): \(decoded[path].map { "\($0)" } ?? "no symbol")")
        }
        #expect(failures.isEmpty, "\(failures.count) of 1000 PNGs did not scan back: \(failures.sorted().prefix(10))")
    }

    @Test(arguments: [1, 7, 255, 256, 1200, 2331])
    func binaryDataScansBackByteForByte(length: Int) async throws {
        // Every byte value, including ones that are not UTF-8; zbarimg's binary mode returns them untouched.
        let bytes = length == 256 ? (0 ... 255).map(UInt8.init) : patternBytes(length, seed: 99)
        let directory = try TemporaryDirectory("qrcode-zbar-binary")
        let code = try QRCode.encode(bytes)
        let path = try directory.write("binary.png", code.png(scale: 3))
        #expect(try await Zbar.decodeBinary(path) == bytes, "version \(code.version)")
    }

    @Test func svgRasterizedByRsvgConvertScansBack() async throws {
        let directory = try TemporaryDirectory("qrcode-svg")
        var expected: [String: String] = [:]
        for length in [1, 20, 90, 180, 333, 640, 1000, 1500, 2331] {
            let url = Samples.url(length: length, seed: 3)
            let code = try QRCode.encode(url)
            let svg = directory.child("\(length).svg"), png = directory.child("\(length).png")
            try Data(code.svg(moduleSize: 3).utf8).write(to: URL(fileURLWithPath: svg))
            let converted = try await runTool("rsvg-convert", ["--format", "png", "--output", png, svg])
            #expect(converted.status == 0, "rsvg-convert failed: \(converted.error)")
            expected[png] = String(decoding: url, as: UTF8.self)
        }
        let decoded = try await Zbar.decodeText(expected.keys.sorted())
        for (path, text) in expected {
            #expect(decoded[path] == [text], "\(URL(fileURLWithPath: path).lastPathComponent) did not scan back")
        }
    }
}
