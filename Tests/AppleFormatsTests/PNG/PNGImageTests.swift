import Foundation
import Testing
@testable import AppleFormats
import TestSupport

@Suite struct PNGImageTests {
    @Test func convertsGeneratedCgBIWithEveryFilterTypeAndPartialAlpha() throws {
        let bytes = [UInt8](try LocalFixtures.data("formats/icons/cgbi_7x5_multiIDAT.png"))
        let expected = [UInt8](try LocalFixtures.data("formats/icons/cgbi_7x5.expected.rgba"))
        #expect(PNGImage.isCgBI(bytes))
        let image = try PNGImage(bytes: bytes)
        #expect(image.wasCgBI)
        #expect(image.width == 7 && image.height == 5)
        #expect(image.rgba == expected)
        let standard = try PNGImage.browserCompatiblePNG(bytes)
        #expect(!PNGImage.isCgBI(standard))
        let reread = try PNGImage(bytes: standard)
        #expect(!reread.wasCgBI)
        #expect(reread.rgba == expected)
    }

    @Test(.enabled(if: SharedFixtures.available))
    func convertsRealCgBIIconsMatchingTheChannelSwappedReferenceOnOpaquePixels() throws {
        let cgbi = try PNGImage(bytes: [UInt8](SharedFixtures.data("icons/cgbi_JesseWo_icon120_multiIDAT.png")))
        let reference = try PNGImage(bytes: [UInt8](SharedFixtures.data("icons/cgbi_JesseWo_icon120.reference_swapped_only.png")))
        #expect(cgbi.wasCgBI && !reference.wasCgBI)
        #expect(cgbi.width == 120 && cgbi.height == 120)
        #expect(reference.width == cgbi.width && reference.height == cgbi.height)
        var opaque = 0, translucentDiffers = 0
        for pixel in stride(from: 0, to: cgbi.rgba.count, by: 4) {
            let alpha = cgbi.rgba[pixel + 3]
            #expect(alpha == reference.rgba[pixel + 3])
            if alpha == 255 {
                opaque += 1
                #expect(cgbi.rgba[pixel ..< pixel + 3] == reference.rgba[pixel ..< pixel + 3])
            } else if alpha > 0 && cgbi.rgba[pixel ..< pixel + 3] != reference.rgba[pixel ..< pixel + 3] {
                translucentDiffers += 1  // the reference kept premultiplied values; we un-premultiply
            }
        }
        #expect(opaque > 1000)
        for name in ["icons/cgbi_JesseWo_AppIcon57_singleIDAT.png", "icons/cgbi_Mosquito1123_AppIcon60x60@2x.png"] {
            let bytes = [UInt8](try SharedFixtures.data(name))
            let converted = try PNGImage.browserCompatiblePNG(bytes)
            let decoded = try PNGImage(bytes: converted)
            #expect(decoded == PNGImage(width: decoded.width, height: decoded.height, rgba: try PNGImage(bytes: bytes).rgba), "\(name)")
        }
    }

    @Test func passesStandardPNGsThroughAndRefusesOtherFiles() throws {
        let image = PNGImage(width: 2, height: 1, rgba: [255, 0, 0, 255, 0, 255, 0, 128])
        let png = try image.encoded()
        #expect(try PNGImage.browserCompatiblePNG(png) == png)
        #expect(try PNGImage(bytes: png).rgba == image.rgba)
        #expect(throws: PNGError.notPNG) { try PNGImage.browserCompatiblePNG(Array("GIF89a".utf8)) }
        #expect(PNGError.notPNG.description == "the app icon is not a PNG file (no PNG signature); check the icon file names in Info.plist")
    }

    @Test func refusesCorruptTruncatedAndUnsupportedIconsWithMessages() throws {
        let bytes = [UInt8](try LocalFixtures.data("formats/icons/cgbi_7x5_multiIDAT.png"))
        var badCRC = bytes
        badCRC[40] ^= 0xff
        let crc = #expect(throws: PNGError.self) { try PNGImage(bytes: badCRC) }
        #expect(crc?.description.contains("fails its CRC check") == true)
        let cut = #expect(throws: PNGError.self) { try PNGImage(bytes: Array(bytes.prefix(bytes.count - 20))) }
        #expect(cut?.description.hasPrefix("the app icon PNG is corrupt: it is truncated") == true)
        // An interlaced 16-bit header.
        let header = PNGImage.signature + PNGChunk.encode("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 16, 6, 0, 0, 1]) + PNGChunk.encode("IEND", [])
        #expect(throws: PNGError.unsupported("a bit depth of 16")) { try PNGImage(bytes: header) }
        let huge = PNGImage.signature + PNGChunk.encode("IHDR", [0, 1, 0, 0, 0, 1, 0, 0, 8, 6, 0, 0, 0]) + PNGChunk.encode("IEND", [])
        #expect(throws: PNGError.tooLarge(width: 65536, height: 65536)) { try PNGImage(bytes: huge) }
    }

    @Test(.enabled(if: SharedFixtures.available))
    func truncationsAndBitFlipsOfIconsNeverTrap() throws {
        let bytes = [UInt8](try SharedFixtures.data("icons/cgbi_JesseWo_AppIcon57_singleIDAT.png"))
        for length in stride(from: 0, to: bytes.count, by: 11) {
            #expect(throws: PNGError.self) { try PNGImage(bytes: Array(bytes.prefix(length))) }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0 ..< 500 {
            var flipped = bytes
            let index = Int.random(in: 0 ..< flipped.count, using: &generator)
            flipped[index] ^= UInt8(1) << UInt8.random(in: 0 ... 7, using: &generator)
            _ = try? PNGImage(bytes: flipped)
        }
    }
}
