import Foundation
import Testing
import TestSupport
@testable import QRCode

@Suite struct PNGRenderingTests {
    @Test func pngDecodesInPythonToTheScaledMatrixWithAQuietZone() async throws {
        let directory = try TemporaryDirectory("qrcode-png")
        var cases: [(code: QRCode, scale: Int, path: String)] = []
        for (length, scale) in [(1, 1), (14, 3), (100, 8), (300, 5), (1000, 2), (2331, 1), (14, 32)] {
            let code = try QRCode.encode(Samples.url(length: length))
            let path = try directory.write("\(length)-\(scale).png", code.png(scale: scale))
            cases.append((code, scale, path))
        }
        let images = try await PythonPNG.decode(cases.map(\.path))
        try #require(images.count == cases.count)
        for ((code, scale, _), image) in zip(cases, images) {
            let side = (code.size + 8) * scale
            #expect(image.chunks == ["IHDR", "IDAT", "IEND"] && image.crcsValid && image.trailingBytes == 0)
            #expect(image.width == side && image.height == side)
            #expect(image.bitDepth == 1 && image.colourType == 0 && image.interlace == 0 && image.otherValues == 0)
            let expected = (0 ..< side).map { y in
                String((0 ..< side).map { x in code.isDark(x: x / scale - 4, y: y / scale - 4) ? "1" : "0" })
            }
            #expect(image.dark == expected, "version \(code.version) at scale \(scale)")
        }
    }

    @Test func scalesOutsideTheSupportedRangeAreRefused() throws {
        let code = try QRCode.encode("https://example.com")
        for scale in [0, -1, 33, Int.max] {
            #expect(throws: QRCodeError.invalidScale(scale, allowed: 1 ... 32)) { try code.png(scale: scale) }
            #expect(throws: QRCodeError.invalidScale(scale, allowed: 1 ... 32)) { try code.svg(moduleSize: scale) }
        }
        #expect(QRCodeError.invalidScale(0, allowed: 1 ... 32).description
            == "a module size of 0 is not supported; choose 1 to 32 pixels per module")
    }

    @Test func pngIsSmall() throws {
        // 1-bit pixels and Up-filtered repeat rows: a page URL's code at 8 pixels a module stays near 1 KB.
        let code = try QRCode.encode(Samples.url(length: 100))
        let png = try code.png(scale: 8)
        #expect(png.count < 2_000, "\(png.count) bytes")
    }
}
