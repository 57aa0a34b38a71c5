import Foundation
import Testing
@testable import AppleFormats
import TestSupport

@Suite struct CrashReportParsingTests {
    static func shared(_ path: String) throws -> CrashReport { try CrashReport(data: try SharedFixtures.data("crash/" + path)) }
    static func local(_ path: String) throws -> CrashReport { try CrashReport(data: try LocalFixtures.data("symbols/crashes/" + path)) }

    @Test(.enabled(if: SharedFixtures.available))
    func imageNamesWithSpacesKeepTheirSpaces() throws {
        let report = try Self.shared("acrp/spaces.txt")
        #expect(report.format == .text)
        let frames = try #require(report.threads.first?.frames)
        #expect(frames.count == 17)
        #expect(frames[0].imageName == "App Namespace")
        #expect(frames[0].address == 0x1_0226_8e70)
        let image = try #require(report.image(for: frames[0]))
        #expect(image.name == "App Namespace")
        #expect(image.uuid?.uuidString == "DEBEFF4E-2653-4F38-E59B-C9DE7B8DAADE")
        #expect(image.path?.hasSuffix("App Namespace Some.app/App Namespace") == true)
        #expect(image.architecture == "arm64")
        #expect(report.images.count == 17)
    }

    @Test(.enabled(if: SharedFixtures.available))
    func xcodeDocumentationHeaderParses() throws {
        let report = try Self.shared("acrp/xcode16.txt")
        #expect(report.incidentIdentifier == "6156848E-344E-4D9E-84E0-87AFD0D0AE7B")
        #expect(report.hardwareModel == "iPhone8,1")
        #expect(report.processName == "TouchCanvas")
        #expect(report.processID == 1052)
        #expect(report.bundleIdentifier == "com.example.apple-samplecode.TouchCanvas")
        #expect(report.version == "1")
        #expect(report.build == "3.0")
        #expect(report.osVersion == "iPhone OS 13.3.1 (17D50)")
        #expect(report.codeType == "ARM-64 (Native)")
    }

    @Test(.enabled(if: SharedFixtures.available))
    func crashedThreadLineAndVersionedImagesParse() throws {
        let report = try Self.shared("acrp/bruno.txt")
        #expect(report.reportVersion == "104")
        #expect(report.exception?.type == "SIGSEGV")
        #expect(report.crashedThread == 5)
        #expect(report.crashingThread?.number == 5)
        #expect(report.crashingThread?.frames.count == 19)
        let app = try #require(report.images.first)
        #expect(app.name == "YetAnotherMac")
        #expect(app.architecture == "x86_64")
        #expect(app.uuid?.uuidString == "2D903291-397D-3D14-BFCA-52C7FB8C5E00")
        #expect(app.path?.contains("Unreal Projects") == true)
        #expect(report.threads[1].frames[2].imageName == "???")
    }

    @Test(.enabled(if: SharedFixtures.available))
    func bundleIdentifierImagesAndPartialSymbolsParse() throws {
        let report = try Self.shared("acrp/XCDYouTubeKit-54.txt")
        let frame = try #require(report.crashingThread?.frames[1])
        #expect(frame.imageName == "ch.pitaya.xcdyoutubekit")
        #expect(frame.symbol == "-[XCDYouTubePlayerScript unscrambleSignature:]")
        #expect(frame.symbolOffset == 285)
        let image = report.image(for: frame)
        #expect(image?.uuid?.uuidString == "31136917-6868-3472-B768-EB12D00E37E9")
        #expect(image?.architecture == "x86_64")
        #expect(report.images.first?.name == "com.AlphaSoft.iTubeDownloader")
    }

    @Test(.enabled(if: SharedFixtures.available), arguments: ["Abort", "BadPointer", "NSException", "StackOverflow"])
    func kscrashTextRenderingsParse(_ name: String) throws {
        let report = try Self.shared("kscrash/\(name).txt")
        #expect(report.incidentIdentifier != nil)
        #expect(report.crashingThread != nil)
        #expect(!report.images.isEmpty)
        let frames = try #require(report.crashingThread?.frames)
        #expect(!frames.isEmpty)
        // Every frame of the crashed thread finds its image by address.
        #expect(frames.allSatisfy { report.image(for: $0) != nil })
    }

    @Test(.enabled(if: SharedFixtures.available))
    func kscrashQueueNamesAndSymbolSuffixesParse() throws {
        let report = try Self.shared("kscrash/NSException.txt")
        #expect(report.threads[0].queue == "apple.main-thread")
        #expect(report.threads[0].crashed)
        #expect(report.threads[4].name == "WebThread")
        #expect(report.threads[0].frames[0].symbol == "__exceptionPreprocess")
        #expect(report.threads[0].frames[0].symbolOffset == 97)
        #expect(report.exception?.type == "EXC_CRASH")
        #expect(report.exception?.signal == "SIGABRT")
        #expect(report.applicationSpecificInformation?.contains("NSInvalidArgumentException") == true)
        #expect(report.images.first?.name == "Crash-Tester")
        #expect(report.images.first?.architecture == "armv7")
    }

    @Test(.enabled(if: SharedFixtures.available))
    func simulatorReportWithApplicationSpecificBacktraceParses() throws {
        let report = try Self.shared("idb/app_default_set.crash")
        #expect(report.crashingThread?.queue == "com.apple.main-thread")
        #expect(report.lastExceptionBacktrace?.count == 16)
        #expect(report.lastExceptionBacktrace?.first?.symbol == "__exceptionPreprocess")
        #expect(report.crashingThread?.frames.first?.symbol == "__pthread_kill")
        #expect(report.images.first?.name == "com.example.apple-samplecode.TableSearch")
        #expect(report.images.first?.uuid?.uuidString == "49594A93-895D-3979-9E79-C1FA379DF7A8")
    }

    @Test(.enabled(if: SharedFixtures.available))
    func concatenatedJSONIPSParses() throws {
        let report = try Self.shared("idb/xctest-concated-json-crash.ips")
        #expect(report.format == .ips)
        #expect(report.bugType == "309")
        #expect(report.incidentIdentifier == "FC4D11AC-D309-4C8E-816E-7B6E676A86BB")
        #expect(report.exception?.type == "EXC_BREAKPOINT")
        #expect(report.exception?.signal == "SIGTRAP")
        #expect(report.hardwareModel == "MacBookPro18,2")
        let thread = try #require(report.crashingThread)
        #expect(thread.number == 0)
        #expect(thread.queue == "com.apple.main-thread")
        let frame = try #require(thread.frames.first)
        #expect(frame.symbol == "-[TpxUnitTests testExample1]")
        #expect(frame.sourceFile == "TpxUnitTests.m")
        #expect(frame.sourceLine == 15)
        #expect(frame.address == 4_370_644_992 + 4752)
        #expect(report.images.first?.uuid?.uuidString == "3CEC66AB-9A13-32DF-8D80-959D522D451E")
    }

    @Test func generatedLegacyReportParses() throws {
        let report = try Self.local("App-legacy.crash")
        #expect(report.reportVersion == "104")
        #expect(report.crashedThread == 0)
        #expect(report.threads.map(\.crashed) == [true, false])
        #expect(report.threads[0].queue == "com.apple.main-thread")
        #expect(report.threads.map(\.frames.count) == [4, 4])
        #expect(report.version == "1.2")
        #expect(report.build == "42")
        #expect(report.exception?.subtype == "KERN_INVALID_ADDRESS at 0x0000000000000000")
        #expect(report.images.map(\.name) == ["App", "dyld", "libsystem_kernel.dylib"])
        #expect(report.threads[0].frames[0].imageIndex == 0)
        #expect(report.threads[0].frames[3].imageIndex == 1)
        #expect(report.lastExceptionBacktrace == nil)
    }

    @Test func compactExceptionBacktraceAndDashedUUIDsParse() throws {
        let report = try Self.local("App-exception.crash")
        #expect(report.reportVersion == "105")
        #expect(report.crashedThread == 0)
        let backtrace = try #require(report.lastExceptionBacktrace)
        #expect(backtrace.count == 2)
        #expect(backtrace.allSatisfy { $0.imageIndex == 0 })
        #expect(report.images[0].uuid != nil)
        #expect(report.exception?.note == "EXC_CORPSE_NOTIFY")
    }

    @Test func iOS14IPSWithTextBodyParses() throws {
        let report = try Self.local("App-109.ips")
        #expect(report.format == .ipsText)
        #expect(report.bugType == "109")
        #expect(report.crashedThread == 0)
        #expect(report.lastExceptionBacktrace?.count == 2)
        #expect(report.lastExceptionBacktrace?.first?.imageName == "App")
        #expect(report.threads.count == 2)
    }

    @Test func jsonIPSFramesAreAbsoluteAddresses() throws {
        let report = try Self.local("App-309.ips")
        #expect(report.format == .ips)
        #expect(report.bugType == "309")
        #expect(report.processName == "App")
        #expect(report.version == "1.2")
        #expect(report.build == "42")
        #expect(report.osVersion == "iPhone OS 17.4.1 (21E236)")
        #expect(report.terminationReason == "SIGNAL 11 Segmentation fault: 11")
        let legacy = try Self.local("App-legacy.crash")
        #expect(report.threads.map { $0.frames.map(\.address) } == legacy.threads.map { $0.frames.map(\.address) })
        #expect(report.images.map(\.uuid) == legacy.images.map(\.uuid))
    }

    @Test func ipsFieldsOfUnexpectedTypesReadAsAbsentAndBadElementsAreDropped() throws {
        let header = #"{"bug_type": 309, "app_name": 7, "incident_id": "A-1"}"#
        let body = #"""
        {"procName": 12, "pid": "not a number", "bundleInfo": {"CFBundleShortVersionString": "1.2", "CFBundleVersion": 42},
         "termination": {"namespace": "SIGNAL", "code": "eleven", "indicator": "Segmentation fault: 11"},
         "faultingThread": 0,
         "usedImages": [{"uuid": "4c4c440b-5555-3144-a184-68d7aacd7c75", "base": 4372692992, "size": 16384, "name": "App", "arch": "arm64"},
                        "garbage", {"uuid": 5, "base": "x", "name": "libdyld.dylib"}],
         "threads": [{"triggered": true, "frames": [{"imageIndex": 0, "imageOffset": 184}, "junk", {"imageIndex": "0", "imageOffset": 16}]},
                     {"name": ["not", "a", "name"], "frames": "none"}]}
        """#
        let report = try CrashReport(text: header + "\n" + body)
        #expect(report.bugType == "309")
        #expect(report.incidentIdentifier == "A-1")
        #expect(report.processName == nil)
        #expect(report.processID == nil)
        #expect(report.version == "1.2")
        #expect(report.build == "42")
        #expect(report.terminationReason == "SIGNAL Segmentation fault: 11")
        #expect(report.images.map(\.name) == ["App", "libdyld.dylib"])
        #expect(report.images[1].uuid == nil)
        #expect(report.images[1].loadAddress == 0)
        #expect(report.threads.map(\.frames.count) == [2, 0])
        #expect(report.threads[0].frames[0].address == 4_372_692_992 + 184)
        #expect(report.threads[0].frames[1].imageIndex == nil)
        #expect(report.threads[1].name == nil)
        // Absent is not the same as empty for the exception backtrace.
        #expect(report.lastExceptionBacktrace == nil)
        let withBacktrace = try CrashReport(text: header + "\n" + body.replacingOccurrences(of: #""faultingThread": 0,"#,
                                                                                              with: #""faultingThread": 0, "lastExceptionBacktrace": [],"#))
        #expect(withBacktrace.lastExceptionBacktrace == [])
    }

    @Test func windowsLineEndingsParseTheSame() throws {
        let text = try String(contentsOf: LocalFixtures.url("symbols/crashes/App-exception.crash"), encoding: .utf8)
        let crlf = try CrashReport(text: text.replacingOccurrences(of: "\n", with: "\r\n"))
        let lf = try CrashReport(text: text)
        #expect(crlf.threads == lf.threads)
        #expect(crlf.images == lf.images)
        #expect(crlf.lastExceptionBacktrace?.map(\.address) == lf.lastExceptionBacktrace?.map(\.address))
        #expect(crlf.processName == "App")
    }

    @Test(.enabled(if: SharedFixtures.available))
    func kscrashJSONIsNotMistakenForAnAppleReport() throws {
        // KSCrash's own JSON format is not an Apple report; it is refused with a clear message.
        do {
            _ = try Self.shared("kscrash/NSException.json")
            Issue.record("expected an error")
        } catch {
            #expect(String(describing: error).contains("not a crash report"))
        }
    }

    @Test func unrelatedTextIsRejected() {
        #expect(throws: CrashReportError.self) { try CrashReport(text: "hello world\nthis is not a crash report\n") }
        #expect(throws: CrashReportError.self) { try CrashReport(text: "{\"a\": 1") }
        #expect(throws: CrashReportError.self) { try CrashReport(text: "{\"bug_type\": \"309\"}\n{ not json") }
    }
}
