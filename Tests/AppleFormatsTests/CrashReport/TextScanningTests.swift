import Testing
@testable import AppleFormats

/// The word-at-a-time scanning the crash report and JSON readers use, checked against plain
/// byte-by-byte definitions of what it must find.
@Suite struct TextScanningTests {
    /// The value of hex digits `text` the slow way: nil unless every byte is a hex digit and the
    /// value fits in 64 bits once leading zeros are dropped.
    static func reference(_ text: [UInt8]) -> UInt64? {
        guard !text.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in text {
            guard let digit = byte.hexDigitValue, value >> 60 == 0 else { return nil }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    static func parsed(_ text: [UInt8]) -> UInt64? {
        let bytes = Array("0x".utf8) + text
        return bytes.withUnsafeBufferPointer { TextSlice($0, 0, $0.count).hexAddress }
    }

    @Test func hexAddressesReadTheSameAsDigitByDigit() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789abcdefABCDEF".utf8)
        let intruders: [UInt8] = [0x20, 0x09, UInt8(ascii: "g"), UInt8(ascii: "G"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "@"),
                                  UInt8(ascii: "`"), 0x00, 0x7F, 0x80, 0xC3, 0xFF, UInt8(ascii: "x")]
        for length in 1 ... 40 {
            for _ in 0 ..< 40 {
                var text = (0 ..< length).map { _ in alphabet.randomElement(using: &generator)! }
                if Bool.random(using: &generator) {
                    text[Int.random(in: 0 ..< length, using: &generator)] = intruders.randomElement(using: &generator)!
                }
                #expect(Self.parsed(text) == Self.reference(text), "\(String(decoding: text, as: UTF8.self))")
            }
        }
        #expect(Self.parsed(Array("ffffffffffffffff".utf8)) == UInt64.max)
        #expect(Self.parsed(Array("0000000000000000000ffffffffffffffff".utf8)) == UInt64.max, "leading zeros never overflow")
        #expect(Self.parsed(Array("1ffffffffffffffff".utf8)) == nil, "65 bits")
        #expect(Self.parsed([]) == nil, "0x alone")
    }

    /// A frame line's address token ends at a blank; the token must be all hex digits.
    @Test func hexDigitsStopAtABlankOnlyWhenAsked() {
        let line = Array("0000000102a04254 0x102a00000".utf8)
        line.withUnsafeBufferPointer { bytes in
            let stopped = TextSlice.hexDigits(bytes, from: 0, end: bytes.count, stopAtBlank: true)
            #expect(stopped?.0 == 0x1_02a0_4254 && stopped?.1 == 16)
            #expect(TextSlice.hexDigits(bytes, from: 0, end: bytes.count, stopAtBlank: false) == nil)
            #expect(TextSlice.hexDigits(bytes, from: 16, end: bytes.count, stopAtBlank: true) == nil, "a blank first is no digit")
        }
    }

    @Test func trimmingSkipsLongPaddingExactly() {
        for padding in 0 ... 40 {
            for tail in ["", "\t", " \t", "\r"] {
                let text = Array(("  App" + String(repeating: " ", count: padding) + tail).utf8)
                text.withUnsafeBufferPointer { bytes in
                    #expect(TextSlice(bytes, 0, bytes.count).trimmed.string == "App", "\(padding) \(tail.debugDescription)")
                }
            }
        }
    }

    /// Frame lines padded with any number of spaces, with and without the tab, parse to the same
    /// frame.
    @Test func frameLinesParseWhateverTheirPadding() throws {
        for padding in 1 ... 40 {
            for separator in ["", "\t"] {
                let line = "3   My App" + String(repeating: " ", count: padding) + separator + "0x0000000102a04254 0x102a00000 + 16980"
                let report = try CrashReport(text: "Thread 0 Crashed:\n\(line)\n")
                let frame = try #require(report.threads.first?.frames.first, "\(line)")
                #expect(frame.number == 3 && frame.imageName == "My App" && frame.address == 0x1_02a0_4254, "\(line)")
            }
        }
        // A "0x" inside the image name that is no address is passed over.
        let report = try CrashReport(text: "Thread 0:\n0   lib0x1 0xzz 0x10 0x10 + 0\n")
        #expect(report.threads.first?.frames.first?.imageName == "lib0x1 0xzz")
        #expect(report.threads.first?.frames.first?.address == 0x10)
    }

    /// JSON whitespace of every shape around every kind of token reads as the same value.
    @Test func jsonWhitespaceRunsOfAnyLengthAreSkipped() throws {
        let compact = #"{"a":[1,-2,"x\"y",true,null,{"b":0.5}],"c":"é"}"#
        let expected = try JSONParser.parse(Array(compact.utf8))
        for run in [" ", "\n", "\r\n", "\t", String(repeating: " ", count: 7), String(repeating: " ", count: 8), String(repeating: " ", count: 9),
                    "\n" + String(repeating: " ", count: 17), String(repeating: " ", count: 31) + "\t"] {
            var spaced = ""
            for character in compact {
                spaced.append(character)
                if ",:[]{}".contains(character) { spaced += run }
            }
            #expect(try JSONParser.parse(Array((run + spaced + run).utf8)) == expected, "\(run.debugDescription)")
        }
    }

    /// Strings of every length, with the characters that end or change a string at every place.
    @Test func jsonStringsOfAnyLengthKeepTheirSpecialCharacters() throws {
        for length in 0 ... 24 {
            for special in ["", "\\\"", "\\\\", "\\n", "é", "\u{7F}"] {
                for position in 0 ... length {
                    var body = String(repeating: "a", count: length)
                    body.insert(contentsOf: special, at: body.index(body.startIndex, offsetBy: position))
                    let decoded = special == "\\\"" ? "\"" : special == "\\\\" ? "\\" : special == "\\n" ? "\n" : special
                    let value = String(repeating: "a", count: position) + decoded + String(repeating: "a", count: length - position)
                    #expect(try JSONParser.parse(Array("\"\(body)\"".utf8)) == .string(value), "\(body)")
                }
            }
        }
        // A raw control byte makes the string unreadable wherever it is.
        for position in 0 ..< 20 {
            var bytes = Array(String(repeating: "a", count: 20).utf8)
            bytes[position] = 0x01
            #expect(try JSONParser.parse([0x22] + bytes + [0x22]) == .unreadable)
        }
    }
}

/// A hostile report of millions of tiny frames or values is refused, not held in memory.
@Suite struct CrashReportSizeLimitTests {
    @Test func textReportsWithMoreFramesThanTheLimitAreRefused() throws {
        let lines = (0 ..< 60).map { "\($0) App 0x\(String(0x1000 + $0, radix: 16))" }.joined(separator: "\n")
        let text = Array("Thread 0 Crashed:\n\(lines)\n".utf8)
        try text.withUnsafeBufferPointer { (bytes) throws -> Void in
            #expect(try CrashReport.parseText(bytes, format: .text, maxFrames: 60).threads.first?.frames.count == 60)
            #expect(throws: CrashReportError.malformed("it has more than 59 frames, far more than any real report")) {
                try CrashReport.parseText(bytes, format: .text, maxFrames: 59)
            }
        }
        #expect(CrashReport.maxTextFrames >= 20_000, "beyond what symbolication takes anyway")
    }

    @Test func jsonWithMoreValuesThanTheLimitIsRefused() throws {
        let json = Array(("[" + Array(repeating: "{\"a\":0}", count: 50).joined(separator: ",") + "]").utf8)
        try json.withUnsafeBufferPointer { (bytes) throws -> Void in
            #expect(try JSONTape.parse(bytes, maxValues: 101).nodes.count == 151)
            #expect(throws: JSONParseError.self) { try JSONTape.parse(bytes, maxValues: 100) }
        }
    }
}
