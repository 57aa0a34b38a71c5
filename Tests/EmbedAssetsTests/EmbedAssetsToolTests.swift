import Foundation
import Testing
import TestSupport

/// EmbedAssetsTool, run as the plugin runs it, on packages made in temporary folders.
@Suite struct EmbedAssetsToolTests {
    /// The tool SwiftPM built for the plugin (or as a product) next to this test bundle. The test
    /// target cannot depend on it: the plugin already links the same module into the build.
    static let tool: URL? = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0 ..< 5 {
            for name in ["EmbedAssetsTool-tool", "EmbedAssetsTool"] {
                let candidate = directory.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    /// A package root with `files` (path to content) and an `EmbedAssets.txt` holding `list`.
    struct Package {
        let directory: TemporaryDirectory
        var root: String { directory.path }
        var list: String { root + "/Sources/Target/EmbedAssets.txt" }
        var output: String { root + "/out/EmbeddedAssets.swift" }

        init(list: String, files: [(String, String)]) throws {
            directory = try TemporaryDirectory()
            try FileManager.default.createDirectory(atPath: directory.path + "/out", withIntermediateDirectories: true)
            try write("Sources/Target/EmbedAssets.txt", list)
            for (path, content) in files { try write(path, content) }
        }

        func write(_ path: String, _ content: String) throws {
            let url = URL(fileURLWithPath: root + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(content.utf8).write(to: url)
        }

        func run(_ extra: [String] = []) async throws -> ToolResult {
            let tool = try #require(EmbedAssetsToolTests.tool, "EmbedAssetsTool was not built")
            return try await runTool(tool.path, ["--list", list, "--root", root, "--output", output] + extra)
        }

        func generated() throws -> String { try String(contentsOfFile: output, encoding: .utf8) }
    }

    @Test func theSameFilesGiveTheSameSourceWhateverTheOrderTheyWereMadeIn() async throws {
        let files = [("web/b.css", "b"), ("web/a.css", "a"), ("web/sub/c.js", "c"), ("Templates/page.html", "<p>{{x}}</p>")]
        let first = try Package(list: "web\nTemplates\n", files: files)
        let second = try Package(list: "# the same, listed the other way round\nTemplates\n\n  web/  \n", files: files.reversed())
        #expect(try await first.run().status == 0)
        #expect(try await second.run().status == 0)
        let source = try first.generated()
        #expect(try second.generated() == source)
        // Sorted by path, and nothing of the machine (such as the temporary folder) in it.
        let keys = source.split(separator: "\n").filter { $0.hasPrefix("        (\"") }.map { $0.split(separator: "\"")[1] }
        #expect(keys == ["Templates/page.html", "web/a.css", "web/b.css", "web/sub/c.js"])
        #expect(!source.contains(first.root))
    }

    @Test func anUnchangedSourceIsNotWrittenAgain() async throws {
        let package = try Package(list: "assets", files: [("assets/a.txt", "one")])
        #expect(try await package.run().status == 0)
        let before = try FileManager.default.attributesOfItem(atPath: package.output)
        #expect(try await package.run().status == 0)
        let after = try FileManager.default.attributesOfItem(atPath: package.output)
        #expect(before[.systemFileNumber] as? Int == after[.systemFileNumber] as? Int)
        #expect(before[.modificationDate] as? Date == after[.modificationDate] as? Date)
        try package.write("assets/a.txt", "two")
        #expect(try await package.run().status == 0)
        #expect(try package.generated().contains(Data("two".utf8).base64EncodedString()))
    }

    @Test func badEntriesAreRefusedNamingTheListLineAndNothingIsWritten() async throws {
        let cases: [(String, String)] = [
            ("present\nmissing\n", "EmbedAssets.txt line 2: missing does not exist in"),
            ("../outside", "EmbedAssets.txt line 1: ../outside is not a path inside the package; write it relative to"),
            ("/etc", "EmbedAssets.txt line 1: /etc is not a path inside the package"),
            ("present/../../x", "is not a path inside the package"),
        ]
        for (list, message) in cases {
            let package = try Package(list: list, files: [("present/a.txt", "a")])
            let result = try await package.run()
            #expect(result.status == 65, "\(list)")
            #expect(result.error.contains(message), "\(list): \(result.error)")
            #expect(!FileManager.default.fileExists(atPath: package.output), "\(list)")
        }
    }

    @Test func usageMistakesExitWith64() async throws {
        let tool = try #require(Self.tool)
        #expect(try await runTool(tool.path, []).status == 64)
        #expect(try await runTool(tool.path, ["--list", "x", "--root"]).status == 64)
        let unknown = try await runTool(tool.path, ["--verbose"])
        #expect(unknown.status == 64)
        #expect(unknown.error.contains("unknown argument --verbose; usage: EmbedAssetsTool --list"))
    }

    @Test func aListThatIsNotUTF8IsRefused() async throws {
        let package = try Package(list: "", files: [])
        try Data([0x77, 0x65, 0x62, 0xff]).write(to: URL(fileURLWithPath: package.list))
        let result = try await package.run()
        #expect(result.status == 65)
        #expect(result.error.contains("is not UTF-8 text; save it as UTF-8"))
    }

    @Test func awkwardFileNamesBecomeValidSwiftStringLiterals() async throws {
        let name = "odd/back\\slash \"quoted\" tab\there\nnewline ünï.txt"
        let package = try Package(list: "odd", files: [(name, "x")])
        #expect(try await package.run().status == 0)
        let source = try package.generated()
        #expect(source.contains(#"("odd/back\\slash \"quoted\" tab\u{9}here\u{a}newline ünï.txt", """"#))
        // The compiler agrees that the generated file is valid Swift.
        let check = try await runTool("swiftc", ["-typecheck", "-swift-version", "6", package.output])
        #expect(check.status == 0, "\(check.error)")
    }

    @Test func watchSlotsFollowTheFilesAndFoldersAsTheyChange() async throws {
        let package = try Package(list: "web", files: [("web/a.css", "a"), ("web/sub/b.js", "b")])
        let watch = package.root + "/watch"
        try FileManager.default.createDirectory(atPath: watch, withIntermediateDirectories: true)
        let slots = ["--watch", watch, "--file-slots", "3", "--folder-slots", "3"]
        #expect(try await package.run(slots).status == 0)

        func inode(_ path: String) throws -> Int? { try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int }
        func target(_ slot: String) throws -> String { try FileManager.default.destinationOfSymbolicLink(atPath: watch + "/" + slot) }
        #expect(try inode(watch + "/file-0") == inode(package.root + "/web/a.css"))
        #expect(try inode(watch + "/file-1") == inode(package.root + "/web/sub/b.js"))
        #expect(try inode(watch + "/file-2") == inode(watch + "/placeholder"))
        #expect(try target("folder-0") == package.root + "/web")
        #expect(try target("folder-1") == package.root + "/web/sub")
        #expect(try target("folder-2") == watch + "/placeholder-folder")

        // An edit in place reaches the slot: it is the same file.
        try FileHandle(forWritingAtPath: package.root + "/web/a.css").map { handle in
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(" more".utf8))
            try handle.close()
        }
        #expect(try String(contentsOfFile: watch + "/file-0", encoding: .utf8) == "a more")

        // A removed file keeps its slot alive until the next run relinks it; the new order is used.
        try FileManager.default.removeItem(atPath: package.root + "/web/a.css")
        #expect(FileManager.default.fileExists(atPath: watch + "/file-0"))
        try package.write("web/sub/c.js", "c")
        #expect(try await package.run(slots).status == 0)
        #expect(try inode(watch + "/file-0") == inode(package.root + "/web/sub/b.js"))
        #expect(try inode(watch + "/file-1") == inode(package.root + "/web/sub/c.js"))
        #expect(try inode(watch + "/file-2") == inode(watch + "/placeholder"))

        // More files than slots: still embedded, and the tool says which changes wait for a new plan.
        try package.write("web/d.css", "d")
        try package.write("web/e.css", "e")
        let crowded = try await package.run(slots)
        #expect(crowded.status == 0)
        #expect(crowded.error.contains("note: changes to 1 embedded file(s) or folder(s) are noticed only after SwiftPM plans the build again"))
        #expect(try package.generated().contains("(\"web/e.css\""))
    }
}
