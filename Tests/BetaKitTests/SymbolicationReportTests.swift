import Foundation
import Testing
import AppleFormats
@testable import BetaKit
import TestSupport

@Suite struct SymbolicationReportTests {
    static let reports = ["App-legacy.crash", "App-exception.crash", "App-109.ips", "App-309.ips"]

    static func symbolicate(_ name: String) async throws -> SymbolicatedReport {
        let report = try CrashReport(data: try LocalFixtures.data("symbols/crashes/\(name)"))
        let locator = try DSYMPathLocator(paths: [SymbolFixtures.path("arm64-dwarf4/App.dSYM")])
        let cache = try SymbolIndexCache(directory: try SymbolFixtures.temporaryDirectory())
        return try Symbolicator(locator: locator, cache: cache).symbolicate(report)
    }

    /// crashes/expected-frames.tsv: llvm-symbolizer at the pc of frame 0 and return address - 1 elsewhere.
    static func expectedFrames() throws -> [String: [SymbolFixtures.Frame]] {
        let text = try String(contentsOfFile: SymbolFixtures.path("crashes/expected-frames.tsv"), encoding: .utf8)
        var result: [String: [SymbolFixtures.Frame]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 7, let lineNumber = Int(f[5]), let column = Int(f[6]) else { continue }
            result["\(f[0]).\(f[1])", default: []].append(.init(function: f[3], file: f[4], line: lineNumber, column: column))
        }
        return result
    }

    @Test(arguments: reports)
    func appFramesMatchLLVMSymbolizerAtPCOrReturnAddressMinusOne(_ name: String) async throws {
        let result = try await Self.symbolicate(name)
        let expected = try Self.expectedFrames()
        var checked = 0
        for (t, thread) in result.threads.enumerated() {
            for frame in thread.frames where frame.image?.name == "App" {
                let want = try #require(expected["\(t).\(frame.frame.number)"])
                let got = frame.locations.map { SymbolFixtures.Frame(function: $0.rawFunction ?? "??", file: $0.file ?? "??", line: $0.line, column: $0.column) }
                #expect(got == want, "thread \(t) frame \(frame.frame.number)")
                #expect(frame.status == .symbolicated)
                checked += 1
            }
        }
        #expect(checked == 5)
    }

    @Test(arguments: reports)
    func everyFrameSurvivesAndSystemImagesAreNamedAsMissing(_ name: String) async throws {
        let result = try await Self.symbolicate(name)
        #expect(result.threads.map(\.frames.count) == result.report.threads.map(\.frames.count))
        #expect(result.imagesWithoutSymbols.map(\.name) == ["dyld", "libsystem_kernel.dylib"])
        #expect(result.imagesWithoutSymbols.allSatisfy { $0.uuid != nil && !$0.isAppImage })
        let dyld = try #require(result.threads[0].frames.last)
        #expect(dyld.status == .noSymbols)
        #expect(dyld.imageOffset == 0x6ec8)
    }

    @Test func textRenderingExpandsInlinedFramesInAppleLayout() async throws {
        let text = try await Self.symbolicate("App-legacy.crash").renderText()
        let lines = text.split(separator: "\n").map(String.init)
        let frame0 = lines.filter { $0.hasPrefix("0   App ") }
        #expect(frame0.count == 3)
        #expect(frame0[0].hasSuffix("\t0x0000000104a2c0b8 clamp_digit (in App) (inline.h:6) [inlined]"))
        #expect(frame0[1].hasSuffix("\t0x0000000104a2c0b8 accumulate (in App) (inline.h:14) [inlined]"))
        #expect(frame0[2].hasSuffix("\t0x0000000104a2c0b8 parse_number (in App) (parse.c:6)"))
        #expect(lines.contains { $0.hasPrefix("2   App ") && $0.hasSuffix("main (in App) (main.c:11)") })
        #expect(lines.contains { $0.hasPrefix("1   App ") && $0.hasSuffix("Counter.bump(by:) (in App) (Fixture.swift:12) [inlined]") })
        #expect(lines.contains { $0.hasPrefix("1   App ") && $0.hasSuffix("compute(_:label:) (in App) (Fixture.swift:18)") })
        // Frames without symbols keep Apple's "load address + offset" form; the header is untouched.
        #expect(lines.contains("3   dyld                                \t0x00000001ea3b6ec8 0x1ea3b0000 + 28360"))
        #expect(lines.contains("Incident Identifier: 4B1F2E3D-5A6C-4D7E-8F90-A1B2C3D4E5F6"))
        // Re-parsing the output gives the same threads with the inlined lines added.
        let reparsed = try CrashReport(text: text)
        #expect(reparsed.threads.map(\.frames.count) == [6, 5])
        #expect(reparsed.threads[0].frames[2].symbol == "parse_number")
        #expect(reparsed.threads[0].frames[2].sourceFile == "parse.c")
    }

    @Test func compactExceptionBacktraceIsExpandedToFrames() async throws {
        let text = try await Self.symbolicate("App-exception.crash").renderText()
        #expect(!text.contains("(0x104a2c0f8 0x104a2c038)"))
        let reparsed = try CrashReport(text: text)
        #expect(reparsed.lastExceptionBacktrace?.map(\.symbol) == ["parse_pair", "main"])
    }

    @Test func jsonIPSRendersAsATranslatedTextReport() async throws {
        let result = try await Self.symbolicate("App-309.ips")
        let text = result.renderText()
        #expect(text.hasPrefix("Incident Identifier: 4B1F2E3D-5A6C-4D7E-8F90-A1B2C3D4E5F6\n"))
        #expect(text.contains("Exception Type:  EXC_BAD_ACCESS (SIGSEGV)"))
        #expect(text.contains("Triggered by Thread:  0"))
        #expect(text.contains("Thread 0 Crashed:"))
        #expect(text.contains("\t0x0000000104a2c0b8 clamp_digit (in App) (inline.h:6) [inlined]"))
        #expect(text.contains("Binary Images:"))
        let reparsed = try CrashReport(text: text)
        #expect(reparsed.images.map(\.uuid) == result.report.images.map(\.uuid))
        #expect(reparsed.crashedThread == 0)
    }

    @Test func jsonOutputCarriesLocationsSignatureAndMissingImages() async throws {
        let json = try await Self.symbolicate("App-309.ips").renderJSON()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let threads = try #require(object["threads"] as? [[String: Any]])
        let frame0 = try #require((threads[0]["frames"] as? [[String: Any]])?.first)
        #expect(frame0["address"] as? String == "0x104a2c0b8")
        #expect(frame0["status"] as? String == "symbolicated")
        let locations = try #require(frame0["locations"] as? [[String: Any]])
        #expect(locations.map { $0["function"] as? String } == ["clamp_digit", "accumulate", "parse_number"])
        #expect(locations.map { $0["inlined"] as? Bool } == [true, true, false])
        #expect((object["imagesWithoutSymbols"] as? [[String: Any]])?.count == 2)
        #expect((object["signature"] as? [String: Any])?["key"] as? String != nil)
    }

    @Test func signatureIsStableAcrossFormatsAndIgnoresSystemFrames() async throws {
        let legacy = try await Self.symbolicate("App-legacy.crash").signature
        let ips = try await Self.symbolicate("App-309.ips").signature
        let exception = try await Self.symbolicate("App-exception.crash").signature
        #expect(legacy == ips)
        #expect(legacy.exceptionType == "EXC_BAD_ACCESS (SIGSEGV)")
        #expect(legacy.frames == ["clamp_digit", "parse_pair", "main"])
        #expect(legacy.key.count == 16)
        // An uncaught exception groups by where it was thrown: the exception backtrace.
        #expect(exception.exceptionType == "EXC_CRASH (SIGABRT)")
        #expect(exception.frames == ["parse_pair", "main"])
        #expect(exception.key != legacy.key)
    }

    @Test func unsymbolicatedAppFramesStillGiveAStableSignature() async throws {
        let report = try CrashReport(data: try LocalFixtures.data("symbols/crashes/App-legacy.crash"))
        let cache = try SymbolIndexCache(directory: try SymbolFixtures.temporaryDirectory())
        let result = try Symbolicator(locator: ChainedSymbolFileLocator([]), cache: cache).symbolicate(report)
        #expect(result.signature.frames == ["App+0x40b8", "App+0x40f8", "App+0x4038"])
        #expect(result.imagesWithoutSymbols.first?.name == "App")
        #expect(result.imagesWithoutSymbols.first?.isAppImage == true)
        #expect(result.threads[0].frames.allSatisfy { $0.locations.isEmpty })
    }
}

extension SymbolicationReportTests {
    @Test func archivedDSYMsAreFoundByUUID() async throws {
        let directory = try SymbolFixtures.temporaryDirectory()
        let home = try Home.initialise(at: directory + "/home", change: HomeSettingsChange(), now: Date()).home
        let archive = Archive(home: home)
        _ = try archive.addSymbols(paths: [SymbolFixtures.path("fat/Fat.dSYM")], now: Date())
        let locator = ArchiveSymbolFileLocator(archive: archive)
        for variant in SymbolFixtures.variants where variant.name.hasPrefix("fat") {
            let expected = try SymbolFixtures.symbolFile(variant)
            let found = try #require(try locator.symbolFile(for: expected.uuid, architecture: nil))
            #expect(found.uuid == expected.uuid)
            #expect(found.architecture == variant.architecture)
            let index = try SymbolIndexCache(directory: home.symbolIndexPath).index(for: found)
            let sample = try #require(try SymbolFixtures.expected(variant).first { $0.frames.count > 1 })
            #expect(SymbolFixtures.frames(try index.lookup(address: sample.address)) == sample.frames)
        }
        #expect(try locator.symbolFile(for: UUID(), architecture: .arm64) == nil)
    }
}

/// The word-at-a-time hex writer the text renderer uses for every address.
@Suite struct TextOutputHexTests {
    @Test func hexIsWrittenAsStringRadixSixteenPaddedToTheWidthAsked() {
        var generator = SystemRandomNumberGenerator()
        var values: [UInt64] = [0, 1, 0xF, 0x10, 0xFFFF_FFFF, 0x1_0000_0000, UInt64.max, 0x1_02a0_4254]
        for _ in 0 ..< 200 { values.append(UInt64.random(in: 0 ... UInt64.max, using: &generator) >> UInt64.random(in: 0 ... 63, using: &generator)) }
        for value in values {
            for digits in [0, 1, 2, 8, 16, 20] {
                var out = TextOutput(capacity: 8)
                out.appendHex(value, digits: digits)
                let text = out.withBytes { String(decoding: $0, as: UTF8.self) }
                let plain = String(value, radix: 16)
                let expected = String(repeating: "0", count: max(0, min(16, digits) - plain.count)) + plain
                #expect(text == expected, "\(value) \(digits)")
            }
        }
    }
}
