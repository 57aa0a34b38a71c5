import Foundation
import Testing
import AppleFormats
@testable import BetaKit
import TestSupport

/// Sentry's CrashProbe crash events against their real dSYMs: every CrashProbe frame must land on
/// the file and line llvm-symbolizer gives, and Objective-C frames on the name the device reported.
@Suite struct SymbolicationCrashProbeEventTests {
    static let events: [String] = ["arm64", "armv7"].flatMap { arch in
        ["Crash with _pthread_list_lock held", "Dereference a NULL pointer", "Swift", "Throw Objective-C exception"].map { "\(arch)/\($0)" }
    }

    @Test(.enabled(if: SharedFixtures.available && LLVMSymbolizer.available), arguments: events)
    func crashProbeFramesLandOnTheRightFileAndLine(_ event: String) async throws {
        let arch = String(event.split(separator: "/")[0])
        let (report, deviceSymbols) = try SentryEvent.report(try SharedFixtures.data("crash/crashprobe/\(event).json"))
        let locator = try DSYMPathLocator(paths: [SharedFixtures.url("crash/crashprobe/\(arch)-CrashProbeiOS.app.dSYM").path,
                                                  SharedFixtures.url("crash/crashprobe/\(arch)-CrashLibiOS.framework.dSYM").path])
        let cache = try SymbolIndexCache(directory: try SymbolFixtures.temporaryDirectory())
        let result = try Symbolicator(locator: locator, cache: cache).symbolicate(report)
        var checked = 0, sourceFiles = Set<String>()
        for (t, thread) in result.threads.enumerated() {
            for frame in thread.frames {
                guard let image = frame.image, let uuid = image.uuid, let file = locator.files[uuid], let offset = frame.imageOffset else { continue }
                let index = try cache.index(for: file)
                let lookup = index.textAddress + Symbolicator.lookupOffset(offset, isReturnAddress: frame.frame.number > 0, architecture: file.architecture)
                let oracle = try LLVMSymbolizer.symbolize(object: file.path, architecture: file.architecture.name, addresses: [lookup])
                let ours = frame.locations.map { SymbolFixtures.Frame(function: $0.rawFunction ?? "??", file: $0.file ?? "??", line: $0.line, column: $0.column) }
                #expect(ours == oracle.first, "\(event) thread \(t) frame \(frame.frame.number)")
                if let device = deviceSymbols[t][frame.frame.number], device.hasPrefix("-[") || device.hasPrefix("+[") || device == "main" {
                    #expect(frame.locations.last?.function == device, "\(event) thread \(t) frame \(frame.frame.number)")
                }
                if let path = frame.locations.first?.file { sourceFiles.insert((path as NSString).lastPathComponent) }
                checked += 1
            }
        }
        #expect(checked >= 3)
        // The crash sites are in CrashProbe's sources.
        #expect(sourceFiles.contains("main.m"))
        #expect(sourceFiles.contains("CRLDetailViewController.m"))
        #expect(result.imagesWithoutSymbols.contains { $0.name == "UIKit" && !$0.isAppImage })
    }

    @Test(.enabled(if: SharedFixtures.available))
    func nullDereferenceLandsOnItsSourceLine() async throws {
        let (report, _) = try SentryEvent.report(try SharedFixtures.data("crash/crashprobe/arm64/Dereference a NULL pointer.json"))
        let locator = try DSYMPathLocator(paths: [SharedFixtures.url("crash/crashprobe/arm64-CrashLibiOS.framework.dSYM").path])
        let cache = try SymbolIndexCache(directory: try SymbolFixtures.temporaryDirectory())
        let result = try Symbolicator(locator: locator, cache: cache).symbolicate(report)
        let crashed = try #require(result.threads.first { $0.crashed })
        let frame = try #require(crashed.frames.first { $0.image?.name == "CrashLibiOS" })
        #expect(frame.frame.number == 0)
        #expect(frame.locations.last?.function == "-[CRLCrashNULL crash]")
        #expect(frame.locations.first?.file?.hasSuffix("CrashProbe/CRLCrashNULL.m") == true)
        #expect(frame.locations.first?.line == 37)
    }
}
