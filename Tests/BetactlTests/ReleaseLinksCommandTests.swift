@testable import BetaKit
import AppleFormats
import CryptoCMS
import Foundation
import Testing
import TestSupport

/// `release` of an .xcarchive folder whose app holds symbolic links: the packaged ipa keeps them
/// as links, so the app's CodeResources seal (which records them) still verifies.
@Suite("release keeps symbolic links", .enabled(if: OpenSSLTool.available && SyntheticApp.available))
struct ReleaseLinksCommandTests {
    @Test("An .xcarchive folder's app with file and folder links is released, and its package verifies with the links intact")
    func xcarchiveLinksSurvivePackaging() throws {
        let dir = try TemporaryDirectory()
        let applications = dir.child("App.xcarchive/Products/Applications")
        try FileManager.default.createDirectory(atPath: applications, withIntermediateDirectories: true)
        let app = try SyntheticApp.build(dir, in: applications)
        try ResigningFixtures.make(in: dir)
        try ResignCommandTests.signer(dir).sign(appAt: app, name: "App.xcarchive/Products/Applications/App.app")
        let cli = Betactl(home: dir.child("home"))
        try cli.ok("init", "--team-id", "ABCDE12345")
        try cli.ok("release", dir.child("App.xcarchive"), "--allow-missing-symbols")

        let package = try ResignCommandTests.packagePath(cli, release: 1)
        let checked = try cli.run("check-signature", package)
        #expect(checked.status == 0, "\(checked.stdout) \(checked.stderr)")
        let archive = try ZipArchive(source: try FileByteSource(path: package))
        for (path, target) in SyntheticApp.links {
            let entry = try #require(archive.entry(named: "Payload/App.app/" + path), "\(path)")
            #expect(entry.isSymbolicLink, "\(path)")
            #expect(String(decoding: try archive.contents(of: entry), as: UTF8.self) == target)
        }
        #expect(archive.entry(named: "Payload/App.app/App")?.isExecutable == true)
    }
}
