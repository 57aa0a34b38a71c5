import AppleFormats
@testable import BetaKit
import Foundation
import Testing
import TestSupport

/// Packaging an .xcarchive's app into an .ipa: files keep their modes, and symbolic links stay
/// links (a signed bundle's CodeResources records them, so a lost link breaks the seal).
@Suite("IPA packager")
struct IPAPackagerTests {
    /// An archive folder whose app holds a file, an executable, a file link and a folder link.
    static func archiveFolder(_ work: TemporaryDirectory) throws -> String {
        let app = work.child("Beta.xcarchive/Products/Applications/App.app")
        try FileManager.default.createDirectory(atPath: app + "/Versions/A", withIntermediateDirectories: true)
        try Data("data".utf8).write(to: URL(fileURLWithPath: app + "/data.txt"))
        try Data([0xcf, 0xfa, 0xed, 0xfe]).write(to: URL(fileURLWithPath: app + "/App"))
        chmod(app + "/App", 0o755)
        try Data("a".utf8).write(to: URL(fileURLWithPath: app + "/Versions/A/a.txt"))
        try FileManager.default.createSymbolicLink(atPath: app + "/current.txt", withDestinationPath: "data.txt")
        try FileManager.default.createSymbolicLink(atPath: app + "/Versions/Current", withDestinationPath: "A")
        return work.child("Beta.xcarchive")
    }

    /// Every non-folder entry of the ipa at `path`: a link's target, or a file's contents, and its mode.
    static func entries(_ path: String) throws -> [String: (link: String?, contents: String, mode: UInt32?)] {
        let archive = try ZipArchive(source: try FileByteSource(path: path))
        var result: [String: (link: String?, contents: String, mode: UInt32?)] = [:]
        for entry in archive.entries where !entry.isDirectory {
            let contents = String(decoding: try archive.contents(of: entry), as: UTF8.self)
            result[entry.name] = (entry.isSymbolicLink ? contents : nil, contents, entry.unixMode)
        }
        return result
    }

    @Test("Links in an archive folder become link entries of the ipa, files keep their modes, and unzip restores the links")
    func folderLinksSurvive() throws {
        let work = try TemporaryDirectory()
        let input = try Self.archiveFolder(work)
        let ipa = work.child("out.ipa")
        _ = try IPAPackager.package(input: input, appBundlePath: "Beta.xcarchive/Products/Applications/App.app", to: ipa)
        let entries = try Self.entries(ipa)
        #expect(entries["Payload/App.app/current.txt"]?.link == "data.txt")
        #expect(entries["Payload/App.app/Versions/Current"]?.link == "A")
        #expect(entries["Payload/App.app/data.txt"]?.link == nil)
        #expect(entries["Payload/App.app/data.txt"]?.contents == "data")
        #expect(entries["Payload/App.app/App"]?.mode.map { $0 & 0o777 } == 0o755)
        let unzip = try runToolNow("unzip", ["-q", ipa, "-d", work.child("unzipped")])
        #expect(unzip.status == 0, "\(unzip.error)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: work.child("unzipped/Payload/App.app/Versions/Current")) == "A")
        #expect(try String(contentsOfFile: work.child("unzipped/Payload/App.app/current.txt"), encoding: .utf8) == "data")
    }

    @Test("A zipped archive's entries, links included, are copied into the ipa still compressed, byte for byte")
    func zippedArchiveEntriesAreCopied() throws {
        let work = try TemporaryDirectory()
        _ = try Self.archiveFolder(work)
        let zipped = work.child("Beta.xcarchive.zip")
        let zip = try runToolNow("zip", ["-qry", zipped, "Beta.xcarchive"], directory: work.path)
        #expect(zip.status == 0, "\(zip.error)")
        let ipa = work.child("out.ipa")
        _ = try IPAPackager.package(input: zipped, appBundlePath: "Beta.xcarchive/Products/Applications/App.app", to: ipa)
        let source = try ZipArchive(source: try FileByteSource(path: zipped))
        let packaged = try ZipArchive(source: try FileByteSource(path: ipa))
        for name in ["current.txt", "Versions/Current", "data.txt", "App", "Versions/A/a.txt"] {
            let from = try #require(source.entry(named: "Beta.xcarchive/Products/Applications/App.app/" + name))
            let to = try #require(packaged.entry(named: "Payload/App.app/" + name))
            #expect(to.crc32 == from.crc32 && to.method == from.method && to.compressedSize == from.compressedSize, "\(name)")
            #expect(to.unixMode == from.unixMode, "\(name)")
            #expect(try packaged.contents(of: to) == source.contents(of: from), "\(name)")
        }
        #expect(try Self.entries(ipa)["Payload/App.app/Versions/Current"]?.link == "A")
        #expect(packaged.entry(named: "Payload/App.app/current.txt")?.isSymbolicLink == true)
    }
}
