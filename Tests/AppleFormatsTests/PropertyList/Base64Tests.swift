import Foundation
import Testing
@testable import AppleFormats

@Suite struct Base64Tests {
    @Test func bothVariantsAgreeWithFoundationsEncoderForEveryTailLength() throws {
        // Lengths 0 to 40 cover every tail (0, 1 or 2 bytes left over); the strides reach every byte value.
        for length in 0 ... 40 {
            let bytes = (0 ..< length).map { UInt8(($0 * 37 + length * 11) % 256) }
            let foundation = Data(bytes).base64EncodedString()
            #expect(String(decoding: Base64.encode(bytes), as: UTF8.self) == foundation)
            let urlSafe = foundation.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(String(decoding: Base64.encode(bytes, .urlSafeUnpadded), as: UTF8.self) == urlSafe, "\(bytes)")
            #expect(try Base64.decode(Base64.encode(bytes)[...]) == bytes)
        }
    }

    @Test func urlSafeVariantUsesDashAndUnderscoreWithoutPadding() {
        #expect(Base64.encode([0xfb, 0xef, 0xbe, 0xff, 0xfe, 0x3e, 0x3f]) == Array("++++//4+Pw==".utf8))
        #expect(Base64.encode([0xfb, 0xef, 0xbe, 0xff, 0xfe, 0x3e, 0x3f], .urlSafeUnpadded) == Array("----__4-Pw".utf8))
    }
}
