import Foundation
import Testing
import TestSupport

/// The EmbedAssets plugin embedded `Fixture/` and `lone.txt` (as EmbedAssets.txt lists them) into
/// this test target; the embedded bytes must be exactly the bytes on disk.
@Suite struct EmbeddedFilesTests {
    static let folder = "Tests/EmbedAssetsTests"

    /// Every non-hidden file under `Fixture/`, found by walking the disk, plus `lone.txt`.
    static func filesOnDisk() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let root = Repository.root.appendingPathComponent(folder + "/Fixture")
        let walker = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]))
        for case let url as URL in walker where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
            let relative = String(url.path.dropFirst(Repository.root.path.count + 1))
            files[relative] = try Data(contentsOf: url)
        }
        files[folder + "/lone.txt"] = try Data(contentsOf: Repository.root.appendingPathComponent(folder + "/lone.txt"))
        return files
    }

    @Test func everyEmbeddedFileHoldsExactlyTheBytesOnDisk() throws {
        let disk = try Self.filesOnDisk()
        #expect(disk.count == 7, "the fixture changed; rerun make-fixture.sh")
        #expect(Set(EmbeddedAssets.files.keys) == Set(disk.keys))
        for (path, bytes) in disk {
            #expect(EmbeddedAssets.files[path] == Array(bytes), "\(path)")
        }
    }

    @Test func keysArePathsFromThePackageRoot() {
        #expect(EmbeddedAssets.files["Tests/EmbedAssetsTests/Fixture/index.html"] != nil)
        #expect(EmbeddedAssets.files["Tests/EmbedAssetsTests/Fixture/nested/deeper/bytes.bin"] != nil)
        #expect(EmbeddedAssets.files["Tests/EmbedAssetsTests/Fixture/name with \"spaces\" & ünïcode.txt"] != nil)
        #expect(EmbeddedAssets.files["Tests/EmbedAssetsTests/lone.txt"] != nil)
    }

    @Test func hiddenFilesAndFoldersAreSkipped() throws {
        // They are really there, so their absence below means something.
        let fixture = Repository.root.appendingPathComponent(Self.folder + "/Fixture")
        for hidden in [".hidden", ".DS_Store", ".cache/secret.txt", "nested/.keep"] {
            #expect(FileManager.default.fileExists(atPath: fixture.appendingPathComponent(hidden).path), "\(hidden)")
        }
        #expect(EmbeddedAssets.files.keys.allSatisfy { !$0.split(separator: "/").contains { $0.hasPrefix(".") } })
    }

    @Test func everyByteValueAndEveryEdgeCaseSurvives() {
        let forward = (0 ... 255).map { UInt8($0) }
        #expect(EmbeddedAssets.files["Tests/EmbedAssetsTests/Fixture/nested/deeper/bytes.bin"] == forward + forward.reversed())
        #expect(EmbeddedAssets.files["Tests/EmbedAssetsTests/Fixture/empty.txt"] == [])
        #expect(EmbeddedAssets.files["Tests/EmbedAssetsTests/Fixture/crlf.txt"] == Array("line one\r\nline two with trailing blanks  \r\n\tno final newline".utf8))
        #expect(EmbeddedAssets.files["Tests/EmbedAssetsTests/Fixture/index.html"].map { String(decoding: $0, as: UTF8.self) }?.contains("Zoë’s page ✓") == true)
    }
}
