import AppleFormats
import Foundation
@testable import BetaKit
import TestSupport

/// A home with the crash store, and the generated App's reports and dSYM (Tests/Fixtures/symbols).
struct CrashFixture {
    let roster: RosterFixture
    var home: Home { roster.home }
    var store: CrashStore { CrashStore(home: home) }
    let processor: CrashProcessor

    /// The App's UUID in its crash reports (arm64, DWARF 4 dSYM).
    static let appUUID = "4C4C440B-5555-3144-A184-68D7AACD7C75"
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    init() throws {
        roster = try RosterFixture()
        processor = try CrashProcessor(store: CrashStore(home: roster.home))
    }

    static func report(_ name: String) throws -> [UInt8] { [UInt8](try LocalFixtures.data("symbols/crashes/\(name)")) }
    static func inspect(_ name: String) throws -> [UInt8] { [UInt8](try LocalFixtures.data("inspect/\(name)")) }

    /// Stores reports as if uploaded, and returns their receipts.
    @discardableResult
    func submit(_ reports: [[UInt8]], source: CrashSource = .raw, testerID: Int64? = nil, userID: String? = nil) throws -> [CrashReceipt] {
        try store.store(reports.map { CrashSubmission(bytes: $0, source: source, fileName: "r", testerID: testerID, userID: userID) }, now: Self.now)
    }

    /// Processes the whole queue.
    @discardableResult
    func process() throws -> Int { try processor.drain(now: { Self.now }) }

    /// Archives the App's dSYM the way `add-symbols` does.
    func addAppSymbols() throws {
        _ = try Archive(home: home).addSymbols(paths: [LocalFixtures.url("symbols/arm64-dwarf4/App.dSYM").path], now: Self.now)
    }

    /// The blob files under blobs/.
    func blobFiles() -> [String] {
        let root = home.blobsPath
        let fm = FileManager.default
        return ((try? fm.subpathsOfDirectory(atPath: root)) ?? []).filter { path in
            var isDirectory: ObjCBool = false
            return fm.fileExists(atPath: "\(root)/\(path)", isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }
}
