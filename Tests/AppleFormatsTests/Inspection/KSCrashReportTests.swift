import Foundation
import Testing
@testable import AppleFormats
import TestSupport

/// KSCrash and SentryCrash JSON of format versions 2.x-3.x (generated fixtures of the crash in
/// Tests/Fixtures/symbols, and KSCrash's own example reports).
@Suite struct KSCrashReportTests {
    static func file(_ name: String) throws -> [UInt8] { [UInt8](try LocalFixtures.data("inspect/kscrash/\(name)")) }

    static let versions: [(String, String, String)] = [
        ("kscrash-2.0.json", "2.0", "2024-05-06T08:11:12Z"),
        ("kscrash-3.0.0-seconds.json", "3.0.0", "2024-05-06T08:11:12Z"),
        ("kscrash-3.4.0-microseconds.json", "3.4.0", "2024-05-06T08:11:12Z"),
        ("sentrycrash-3.2.0.json", "3.2.0", "2024-05-06T08:11:12Z"),
    ]

    @Test(arguments: versions.map(\.0))
    func readsEveryVersionWithImagesThreadsAndTheException(_ name: String) throws {
        let expected = try #require(Self.versions.first { $0.0 == name })
        let report = try KSCrashReport(bytes: try Self.file(name))
        #expect(report.formatVersion == expected.1)
        #expect(report.timestamp == expected.2)
        #expect(report.reportType == "standard")
        #expect(report.processName == "App")
        #expect(report.system.bundleIdentifier == "com.example.fixture")
        #expect(report.system.shortVersion == "1.2")
        #expect(report.system.bundleVersion == "42")
        #expect(report.system.osDescription == "iOS 17.4.1 (21E236)")
        #expect(report.system.machine == "iPhone14,5")
        #expect(report.system.appUUID == UUID(uuidString: "4C4C440B-5555-3144-A184-68D7AACD7C75"))
        #expect(report.error?.machException == "EXC_BAD_ACCESS")
        #expect(report.error?.machCode == "KERN_INVALID_ADDRESS")
        #expect(report.error?.signal == "SIGSEGV")
        #expect(report.error?.address == 0)
        #expect(report.diagnosis == "Attempted to dereference null pointer.")
        #expect(report.hasBinaryImages)
        #expect(report.images.map(\.name) == ["App", "dyld", "libsystem_kernel.dylib"])
        #expect(report.images.map { $0.architecture?.name } == ["arm64", "arm64e", "arm64e"])
        #expect(report.images[0].uuid == UUID(uuidString: "4C4C440B-5555-3144-A184-68D7AACD7C75"))
        #expect(report.images[0].loadAddress == 0x104A28000)
        #expect(report.threads.map(\.frames.count) == [4, 4])
        #expect(report.crashedThread?.index == 0)
        #expect(report.threads[0].frames.map(\.instructionAddress) == [0x104A2C0B8, 0x104A2C0F8, 0x104A2C038, 0x1EA3B6EC8])
    }

    @Test func convertsToTheCommonCrashModelWithFramesLinkedToImages() throws {
        let report = try KSCrashReport(bytes: try Self.file("kscrash-3.4.0-microseconds.json")).crashReport()
        #expect(report.format == .kscrash)
        #expect(report.processName == "App")
        #expect(report.osVersion == "iOS 17.4.1 (21E236)")
        #expect(report.exception?.type == "EXC_BAD_ACCESS")
        #expect(report.crashedThread == 0)
        #expect(report.images[0].endAddress == 0x104A28000 + 32767)
        let frames = try #require(report.crashingThread?.frames)
        #expect(frames.map(\.imageIndex) == [0, 0, 0, 1])
        #expect(frames.map(\.imageName) == ["App", "App", "App", "dyld"])
        #expect(frames[3].symbol == "start" && frames[3].symbolOffset == 8)
        // The same addresses as the Apple report of the same crash.
        let apple = try CrashReport(bytes: [UInt8](try LocalFixtures.data("symbols/crashes/App-309.ips")))
        #expect(report.threads.map { $0.frames.map(\.address) } == apple.threads.map { $0.frames.map(\.address) })
        #expect(report.images.map(\.uuid) == apple.images.map(\.uuid))
    }

    @Test func reportsWithoutBinaryImagesAreAccepted() throws {
        let custom = try KSCrashReport(bytes: try Self.file("kscrash-3.4.0-no-images.json"))
        #expect(!custom.hasBinaryImages && custom.images.isEmpty)
        #expect(custom.reportType == "custom")
        #expect(custom.threads.count == 2)
        let converted = custom.crashReport()
        #expect(converted.crashingThread?.frames.allSatisfy { $0.imageIndex == nil } == true)
        let minimal = try KSCrashReport(bytes: try Self.file("kscrash-3.1.0-minimal.json"))
        #expect(minimal.reportType == "minimal" && minimal.images.isEmpty)
        #expect(minimal.threads.count == 1 && minimal.crashedThread?.frames.count == 4)
    }

    @Test func formatsOtherThanTwoAndThreeAreRefused() throws {
        #expect(throws: KSCrashReportError.unsupportedVersion("4.0.0")) { try KSCrashReport(bytes: try Self.file("kscrash-4.0.0.json")) }
        #expect(throws: KSCrashReportError.unsupportedVersion("1.9")) {
            try KSCrashReport(bytes: Array(#"{"report":{"version":{"major":1,"minor":9}},"crash":{}}"#.utf8))
        }
    }

    @Test func fieldsOfTheWrongTypeAreRefusedNamingTheirPath() {
        func refuse(_ json: String, _ needle: String) {
            #expect {
                try KSCrashReport(bytes: Array(json.utf8))
            } throws: { error in
                guard let error = error as? KSCrashReportError, case let .malformed(detail) = error else { return false }
                return detail.contains(needle)
            }
        }
        refuse(#"{"report":{"version":"3.0.0"},"crash":{"threads":[{"backtrace":{"contents":[{"instruction_addr":"x"}]}}]}}"#,
               "crash.threads[0].backtrace.contents[0].instruction_addr is not an integer")
        refuse(#"{"report":{"version":"3.0.0"},"system":{"machine":7},"crash":{}}"#, "system.machine is not a string")
        refuse(#"{"report":{"version":"three"},"crash":{}}"#, "report.version")
        refuse(#"{"report":{"version":"3.0.0"},"crash":{},"binary_images":[{"image_addr":1,"uuid":"nope"}]}"#, "binary image 1 has the UUID \"nope\"")
        refuse(#"{"report":{}}"#, "report.version is missing")
        #expect(throws: KSCrashReportError.missingSection("crash")) { try KSCrashReport(bytes: Array(#"{"report":{"version":"3.0.0"}}"#.utf8)) }
    }

    @Test(.enabled(if: SharedFixtures.available), arguments: ["Abort", "BadPointer", "NSException", "StackOverflow"])
    func readsKSCrashsOwnExampleReports(_ name: String) throws {
        let report = try KSCrashReport(bytes: [UInt8](try SharedFixtures.data("crash/kscrash/\(name).json")))
        #expect(report.formatVersion == "2.0")
        #expect(report.processName == "Crash-Tester")
        #expect(report.system.osDescription == "iPhone OS 4.3.3 (8J2)")
        #expect(report.images.count == 123)
        #expect(report.images.allSatisfy { $0.architecture?.name.hasPrefix("arm") == true })
        let crashed = try #require(report.crashedThread)
        #expect(!crashed.frames.isEmpty)
        let converted = report.crashReport()
        #expect(converted.crashingThread?.frames.contains { $0.imageName == "Crash-Tester" } == true)
        if name == "NSException" {
            #expect(report.error?.exceptionName == "NSInvalidArgumentException")
            #expect(report.error?.name == "NSInvalidArgumentException")
            #expect(converted.exception?.note?.hasPrefix("NSInvalidArgumentException: -[__NSArrayI objectForKey:]") == true)
        }
    }

    @Test(arguments: ["kscrash-2.0.json", "kscrash-3.1.0-minimal.json"])
    func damagedReportsGiveATypedErrorOrAConsistentReport(_ name: String) throws {
        var refused = 0
        for (label, bytes) in damagedVariants(of: try Self.file(name)) {
            do {
                let report = try KSCrashReport(bytes: bytes)
                let converted = report.crashReport()
                for frame in converted.threads.flatMap(\.frames) {
                    if let index = frame.imageIndex { #expect(converted.images.indices.contains(index), "\(label)") }
                }
            } catch {
                refused += 1
                #expect(!error.description.isEmpty, "\(label)")
            }
        }
        #expect(refused > 0)
    }
}
