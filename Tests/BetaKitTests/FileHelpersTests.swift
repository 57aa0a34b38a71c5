import Foundation
import Testing
@testable import BetaKit
import TestSupport

@Suite struct FileHelpersTests {
    @Test func directoryEntriesListsEveryNameButDotAndDotDot() throws {
        let dir = try TemporaryDirectory()
        try Data().write(to: URL(fileURLWithPath: dir.child("a")))
        try Data().write(to: URL(fileURLWithPath: dir.child(".hidden")))
        try FileManager.default.createDirectory(atPath: dir.child("sub folder"), withIntermediateDirectories: false)
        try Data().write(to: URL(fileURLWithPath: dir.child("sub folder/inner")))
        #expect(try directoryEntries(dir.path).sorted() == [".hidden", "a", "sub folder"])
        #expect(try directoryEntries(dir.child("sub folder")) == ["inner"])
    }

    @Test func directoryEntriesReadsNamesOfEveryLengthWhole() throws {
        // Each readdir record is only as long as its name; names from 1 to 255 bytes (the most a
        // name may have), some not ASCII, come back exactly, so the name is read in place and to
        // its terminator, neither cut short nor read as the field's full 256 bytes.
        let dir = try TemporaryDirectory()
        var expected: [String] = []
        for length in 1...255 {
            let name = length % 7 == 0 && length >= 2 ? String(repeating: "x", count: length - 2) + "é" : String(repeating: "n", count: length)
            try Data().write(to: URL(fileURLWithPath: dir.child(name)))
            expected.append(name)
        }
        #expect(try directoryEntries(dir.path).sorted() == expected.sorted())
    }

    @Test func directoryEntriesOfAMissingFolderThrowsNamingIt() throws {
        let dir = try TemporaryDirectory()
        let missing = dir.child("missing")
        #expect {
            try directoryEntries(missing)
        } throws: { error in
            (error as? FileSystemError)?.path == missing && (error as? FileSystemError)?.errno == ENOENT
        }
    }

    @Test(arguments: [("a/b", "a/b"), ("a/b/", "a/b"), ("a/b//", "a/b"), ("/", "/"), ("//", "/"), ("", "")])
    func withoutTrailingSlashesKeepsTheRoot(path: String, expected: String) {
        #expect(path.withoutTrailingSlashes == expected)
    }

    @Test func aDirectoryInputGivenWithTrailingSlashesIsNamedByItsLastComponent() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.child("Beta.xcarchive/Products"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir.child("Beta.xcarchive/Products/file")))
        let source = try DirectoryBundleSource(root: dir.child("Beta.xcarchive//"))
        #expect(source.files == ["Beta.xcarchive/Products/file": 1])
        #expect(try source.contents(of: "Beta.xcarchive/Products/file", maxSize: 10) == Array("x".utf8))
    }

    @Test func aMappingRecordsTheFileItMappedNotWhateverIsAtThePathLater() throws {
        let dir = try TemporaryDirectory()
        let path = dir.child("file")
        try Data("first".utf8).write(to: URL(fileURLWithPath: path))
        let mapped = try MappedFile(path: path)
        let recorded = SymbolSource(path: path, status: mapped.status)
        #expect(recorded == SymbolSource(path: path))
        #expect(recorded.size == 5)
        #expect(recorded.isUnchanged)
        // Another file renamed over the path: the mapping still describes the one it holds.
        try Data("second!".utf8).write(to: URL(fileURLWithPath: dir.child("other")))
        #expect(rename(dir.child("other"), path) == 0)
        #expect(mapped.status.size == 5)
        #expect(!recorded.isUnchanged)
        #expect(try MappedFile(path: path).status.inode != mapped.status.inode)
    }
}
