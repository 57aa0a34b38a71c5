import Foundation
import Testing
import TestSupport
@testable import AppleFormats

@Suite struct ZipWriterTests {
    @Test func writesArchivesThatOurReaderAndPythonsZipfileAccept() throws {
        var bytes: [UInt8] = []
        var writer = ZipWriter { bytes.append(contentsOf: $0) }
        let big = (0 ..< 700_000).map { UInt8(truncatingIfNeeded: $0 &* 31 >> 3) }
        try writer.addDirectory("Payload/")
        try writer.addFile("Payload/empty") { _ in }
        try writer.addFile("Payload/big.bin", mode: 0o100755) { deliver in
            try big.withUnsafeBytes { raw in
                try deliver(UnsafeRawBufferPointer(rebasing: raw[0 ..< 100_000]))
                try deliver(UnsafeRawBufferPointer(rebasing: raw[100_000...]))
            }
        }
        try writer.addFile("Payload/stored.txt", compress: false) { deliver in try Array("plain".utf8).withUnsafeBytes { try deliver($0) } }
        try writer.close()
        let archive = try ZipArchive(source: ZipMemorySource(bytes))
        #expect(archive.entries.map(\.name) == ["Payload/", "Payload/empty", "Payload/big.bin", "Payload/stored.txt"])
        #expect(try archive.contents(of: try #require(archive.entry(named: "Payload/big.bin"))) == big)
        #expect(archive.entry(named: "Payload/big.bin")?.isExecutable == true)
        #expect(try archive.contents(of: try #require(archive.entry(named: "Payload/stored.txt"))) == Array("plain".utf8))
        #expect(try archive.contents(of: try #require(archive.entry(named: "Payload/empty"))).isEmpty)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString).zip")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        // Python's zipfile checks every CRC; a structural problem raises and exits non-zero.
        let checked = try runToolNow("python3", ["-c", "import sys, zipfile; sys.exit(1 if zipfile.ZipFile(sys.argv[1]).testzip() else 0)", url.path])
        #expect(checked.status == 0, "zipfile: \(checked.error)")
    }

    @Test func copiedEntriesKeepTheirCompressedBytesCRCAndModeAndLinksAreWrittenAsLinks() throws {
        var original: [UInt8] = []
        var first = ZipWriter { original.append(contentsOf: $0) }
        let text = Array(String(repeating: "compressible text ", count: 5000).utf8)
        try first.addFile("App.app/text.json") { deliver in try text.withUnsafeBytes { try deliver($0) } }
        try first.addFile("App.app/tool", mode: 0o100755, compress: false) { deliver in try [1, 2, 3].withUnsafeBytes { try deliver($0) } }
        try first.addSymbolicLink("App.app/current", target: "text.json")
        try first.close()
        let source = try ZipArchive(source: ZipMemorySource(original))
        let link = try #require(source.entry(named: "App.app/current"))
        #expect(link.isSymbolicLink && link.method == 0)
        #expect(try source.contents(of: link) == Array("text.json".utf8))

        var copy: [UInt8] = []
        var second = ZipWriter { copy.append(contentsOf: $0) }
        for entry in source.entries { try second.copyEntry(entry, of: source, as: "Payload/" + entry.name) }
        try second.close()
        let copied = try ZipArchive(source: ZipMemorySource(copy))
        for entry in source.entries {
            let moved = try #require(copied.entry(named: "Payload/" + entry.name))
            #expect(moved.crc32 == entry.crc32 && moved.method == entry.method && moved.unixMode == entry.unixMode, "\(entry.name)")
            var before: [UInt8] = [], after: [UInt8] = []
            try source.rawData(of: entry) { before.append(contentsOf: $0) }
            try copied.rawData(of: moved) { after.append(contentsOf: $0) }
            #expect(after == before && moved.compressedSize == entry.compressedSize, "\(entry.name) was copied, not deflated again")
            #expect(try copied.contents(of: moved) == source.contents(of: entry))
        }
        #expect(try #require(source.entry(named: "App.app/text.json")).compressedSize < UInt64(text.count), "the copy stays deflated")
        #expect(copied.entry(named: "Payload/App.app/current")?.isSymbolicLink == true)

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("copied-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(copy).write(to: url.appendingPathComponent("copy.zip"))
        let unzip = try runToolNow("unzip", ["-q", url.appendingPathComponent("copy.zip").path, "-d", url.appendingPathComponent("out").path])
        #expect(unzip.status == 0, "\(unzip.error)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: url.appendingPathComponent("out/Payload/App.app/current").path) == "text.json")
        #expect(FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("out/Payload/App.app/tool").path))
    }

    @Test func refusesUnsafeNames() {
        var writer = ZipWriter { _ in }
        #expect(throws: ZipError.self) { try writer.addFile("../evil") { _ in } }
        #expect(throws: ZipError.self) { try writer.addDirectory("/abs") }
    }

    @Test func refusesANameLongerThanTheZipNameFieldInsteadOfTrapping() throws {
        var bytes: [UInt8] = []
        var writer = ZipWriter { bytes.append(contentsOf: $0) }
        let longest = String(repeating: "a", count: 65_535)
        let error = #expect(throws: ZipError.self) { try writer.addFile(longest + "b") { _ in } }
        #expect(error?.description.contains("an entry name of 65536 bytes is longer than the 65535 bytes a zip name field holds") == true)
        #expect(bytes.isEmpty, "nothing is written for a refused entry")
        // The longest name that fits is still written and read back.
        var fresh = ZipWriter { bytes.append(contentsOf: $0) }
        try fresh.addFile(longest, compress: false) { deliver in try Array("x".utf8).withUnsafeBytes { try deliver($0) } }
        try fresh.close()
        let archive = try ZipArchive(source: ZipMemorySource(bytes))
        #expect(archive.entries.map(\.name) == [longest])
    }
}
