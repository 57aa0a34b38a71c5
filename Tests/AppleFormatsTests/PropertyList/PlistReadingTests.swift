import Foundation
import Testing
@testable import AppleFormats
import TestSupport

/// Our XML and binary property-list readers: every value kind, integers kept apart from reals,
/// and agreement with Foundation's reader on real files from Apple's tools.
@Suite struct PlistReadingTests {
    static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text) ?? Date.distantPast }

    /// A value with every kind, widths that need each binary integer size, counts of 15 and more
    /// (the extended count form), non-ASCII text (UTF-16 in binary) and nesting.
    static let sample: PlistValue = .dictionary([
        "string": .string("a<b>&\"'c é"),
        "unicode": .string("日本語 🙂 text longer than fifteen units"),
        "empty string": .string(""),
        "integers": .array([0, 255, 256, 65535, 65536, 4_294_967_296, Int64.max, Int64.min, -1].map { .integer($0) }),
        "reals": .array([2.0, 1.5, 0.1, 1e100, -3.25, Double.infinity].map { .real($0) }),
        "bools": .array([.bool(true), .bool(false)]),
        "date": .date(date("2023-11-14T22:13:20Z")),
        "old date": .date(date("1653-02-10T06:13:20Z")),
        "data": .data((0 ..< 100).map { UInt8($0) }),
        "empty data": .data([]),
        "long array": .array((0 ..< 20).map { .string("item \($0)") }),
        "empty array": .array([]),
        "empty dict": .dictionary([:]),
        "nested": .dictionary(["k": .dictionary(["x": .array([.string("y"), .integer(3), .dictionary([:])])])]),
        "k1": .integer(1), "k2": .integer(2), "k3": .integer(3), "k4": .integer(4), "k5": .integer(5),
    ])

    @Test func readsXMLValuesOfEveryKind() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <!-- comments are skipped -->
        <dict>
            <key>string</key><string>a &lt;b&gt; &amp; &quot;&apos; &#233;&#x1F642; <![CDATA[<raw & kept>]]></string>
            <key>empty</key><string/>
            <key>spaced</key><string>  kept  </string>
            <key>integer</key><integer> -42 </integer>
            <key>hex</key><integer>0x1F</integer>
            <key>max</key><integer>9223372036854775807</integer>
            <key>min</key><integer>-9223372036854775808</integer>
            <key>whole real</key><real>2</real>
            <key>exponent</key><real>1e+100</real>
            <key>negative infinity</key><real>-infinity</real>
            <key>true</key><true/>
            <key>false</key><false></false>
            <key>date</key><date>2023-11-14T22:13:20Z</date>
            <key>fraction</key><date>2001-01-01T00:00:00.25Z</date>
            <key>data</key><data>
                AAEC
                /w==
            </data>
            <key>nested</key><array><dict/><array/><integer>1</integer><dict><key></key><string>x</string></dict></array>
        </dict>
        </plist>
        """
        let value = try PlistValue(parsing: Array(xml.utf8))
        #expect(value == .dictionary([
            "string": .string("a <b> & \"' é🙂 <raw & kept>"),
            "empty": .string(""),
            "spaced": .string("  kept  "),
            "integer": .integer(-42),
            "hex": .integer(31),
            "max": .integer(.max),
            "min": .integer(.min),
            "whole real": .real(2),
            "exponent": .real(1e100),
            "negative infinity": .real(-.infinity),
            "true": .bool(true),
            "false": .bool(false),
            "date": .date(Date(timeIntervalSince1970: 1_700_000_000)),
            "fraction": .date(Date(timeIntervalSinceReferenceDate: 0.25)),
            "data": .data([0, 1, 2, 0xFF]),
            "nested": .array([.dictionary([:]), .array([]), .integer(1), .dictionary(["": .string("x")])]),
        ]))
    }

    @Test func keepsIntegersAndRealsApartAsFoundationDoes() throws {
        let xml = Array("<plist><array><integer>2</integer><real>2</real><real>2.0</real><integer>0</integer><real>0</real></array></plist>".utf8)
        let value = try PlistValue(parsing: xml)
        #expect(value == .array([.integer(2), .real(2), .real(2), .integer(0), .real(0)]))
        #expect(try FoundationPlistOracle.parse(xml) == value)
        let binary = try FoundationPlistOracle.write(value, format: .binary)
        #expect(try PlistValue(parsing: binary) == value)
    }

    @Test func readsAWholePlistWithoutThePlistWrapper() throws {
        #expect(try PlistValue(parsing: Array("\u{FEFF}<dict><key>a</key><true/></dict>\n".utf8)) == .dictionary(["a": .bool(true)]))
        #expect(try PlistValue(parsing: Array("<string>only</string>".utf8)) == .string("only"))
    }

    @Test func readsBinaryPlistsFoundationWrites() throws {
        let bytes = try FoundationPlistOracle.write(Self.sample, format: .binary)
        #expect(bytes.starts(with: Array("bplist00".utf8)))
        #expect(try PlistValue(parsing: bytes) == Self.sample)
    }

    @Test func readsXMLPlistsFoundationWrites() throws {
        let bytes = try FoundationPlistOracle.write(Self.sample, format: .xml)
        #expect(try PlistValue(parsing: bytes) == Self.sample)
    }

    @Test func readsSixteenByteAndNarrowBinaryIntegersAndFloatReals() throws {
        // Objects: 0 array [1, 2, 3, 4]; 1 int16 0xFFFF; 2 int128 = 5; 3 int128 = -2; 4 float32 1.5.
        let objects: [[UInt8]] = [[0xA4, 1, 2, 3, 4], [0x11, 0xFF, 0xFF],
                                  [0x14] + [UInt8](repeating: 0, count: 15) + [5],
                                  [0x14] + [UInt8](repeating: 0xFF, count: 15) + [0xFE],
                                  [0x22, 0x3F, 0xC0, 0, 0]]
        let value = try PlistValue(parsing: PlistRobustnessTests.binaryPlist(objects))
        #expect(value == .array([.integer(65535), .integer(5), .integer(-2), .real(1.5)]))
    }

    @Test(.enabled(if: SharedFixtures.available), arguments: ["Info_binary_fastlane_very-capable-app.plist", "Info_binary_Mosquito1123_prometheus.plist",
                                                             "entitlements_Mosquito1123_prometheus.plist", "entitlements_fastlane_very-capable-app.xcent"])
    func readsAppleWrittenPlistsAsFoundationDoes(_ name: String) throws {
        let bytes = [UInt8](try SharedFixtures.data("macho/" + name))
        let ours = try PlistValue(parsing: bytes)
        #expect(ours == (try FoundationPlistOracle.parse(bytes)))
        #expect(ours.dictionary?.isEmpty == false)
    }

    @Test(.enabled(if: SharedFixtures.available))
    func readsEveryProfilePlistAsFoundationDoes() throws {
        let folder = SharedFixtures.url("profiles").path
        var compared = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where !name.hasPrefix("malformed") {
            let envelope = try CMSSignedData(bytes: [UInt8](try SharedFixtures.data("profiles/" + name)))
            let content = try #require(envelope.content)
            let ours = try PlistValue(parsing: content)
            #expect(ours == (try FoundationPlistOracle.parse(content)), "\(name)")
            #expect(ours["ExpirationDate"]?.date != nil, "\(name)")
            compared += 1
        }
        #expect(compared >= 8)
    }

    @Test func readsTheDSYMInfoPlistsOfTheLocalFixtures() throws {
        for variant in ["arm64-dwarf4/App.dSYM", "arm64-dwarf5/App.dSYM", "fat/Fat.dSYM"] {
            let bytes = [UInt8](try LocalFixtures.data("symbols/\(variant)/Contents/Info.plist"))
            let ours = try PlistValue(parsing: bytes)
            #expect(ours == (try FoundationPlistOracle.parse(bytes)))
            #expect(ours["CFBundleIdentifier"]?.string?.isEmpty == false)
        }
    }
}
