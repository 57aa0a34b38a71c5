#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestSupport
@testable import PosixIO

/// Directories are listed, made, emptied and re-permissioned; files are hard-linked and mapped;
/// each failure names the call and the path.
@Suite struct DirectoryAndMappingTests {
    @Test func aDirectoryListsItsEntriesWithoutDotAndDotDot() throws {
        let directory = try TemporaryDirectory("posixio")
        #expect(try FileSystem.directoryEntries(directory.path) == [])
        let longName = String(repeating: "n", count: 200)
        for name in ["a", "b.txt", longName] { try FileDescriptor.open(directory.child(name), .writeOnly, options: [.create]).close() }
        try FileSystem.makeDirectory(directory.child("sub"))
        #expect(Set(try FileSystem.directoryEntries(directory.path)) == ["a", "b.txt", longName, "sub"])
        do {
            _ = try FileSystem.directoryEntries(directory.child("missing"))
            Issue.record("a missing directory was listed")
        } catch {
            #expect(error.isNotFound)
            #expect(error.description == "cannot list \(directory.child("missing")): No such file or directory (errno \(ENOENT))")
        }
        #expect(throws: SystemCallError(operation: "list", path: directory.child("a"), errno: ENOTDIR)) {
            try FileSystem.directoryEntries(directory.child("a"))
        }
    }

    @Test func emptyDirectoriesAreRemovedAndFullOnesRefused() throws {
        let directory = try TemporaryDirectory("posixio")
        let sub = directory.child("sub")
        try FileSystem.makeDirectory(sub)
        try FileDescriptor.open(sub + "/f", .writeOnly, options: [.create]).close()
        #expect(throws: SystemCallError(operation: "remove the directory", path: sub, errno: ENOTEMPTY)) {
            try FileSystem.removeDirectory(sub)
        }
        try FileSystem.removeFile(sub + "/f")
        #expect(try FileSystem.removeDirectory(sub))
        #expect(try !FileSystem.removeDirectory(sub), "removing what is gone is not an error")
    }

    @Test func temporaryDirectoriesArePrivateAndUnique() throws {
        let directory = try TemporaryDirectory("posixio")
        let first = try FileSystem.makeTemporaryDirectory(template: directory.child("work-XXXXXX"))
        let second = try FileSystem.makeTemporaryDirectory(template: directory.child("work-XXXXXX"))
        #expect(first != second && first.hasPrefix(directory.child("work-")) && !first.hasSuffix("XXXXXX"))
        #expect(try FileSystem.status(first)?.kind == .directory)
        #expect(try FileSystem.status(first)?.permissions == 0o700)
        #expect(throws: SystemCallError(operation: "create a temporary directory", path: directory.child("bad"), errno: EINVAL)) {
            try FileSystem.makeTemporaryDirectory(template: directory.child("bad"))
        }
    }

    @Test func permissionsAreSetAndHardLinksShareTheFile() throws {
        let directory = try TemporaryDirectory("posixio")
        let path = directory.child("f")
        let file = try FileDescriptor.open(path, .writeOnly, options: [.create], permissions: 0o644)
        try file.writeAll(Array("shared".utf8))
        try file.close()
        try FileSystem.setPermissions(path, 0o600)
        let status = try #require(try FileSystem.status(path))
        #expect(status.permissions == 0o600)
        #expect(status.mode & 0o170000 == 0o100000, "the whole mode keeps the file type bits")
        try FileSystem.makeHardLink(directory.child("g"), to: path)
        let linked = try #require(try FileSystem.status(directory.child("g")))
        #expect(linked.inode == status.inode && linked.device == status.device && linked.size == 6)
        #expect(throws: SystemCallError(operation: "link", path: directory.child("g"), errno: EEXIST)) {
            try FileSystem.makeHardLink(directory.child("g"), to: path)
        }
        #expect(throws: SystemCallError(operation: "change the permissions of", path: directory.child("none"), errno: ENOENT)) {
            try FileSystem.setPermissions(directory.child("none"), 0o600)
        }
    }

    @Test func aMappingShowsTheFilesBytes() throws {
        let directory = try TemporaryDirectory("posixio")
        let path = directory.child("data")
        let bytes = (0 ..< 70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let writer = try FileDescriptor.open(path, .writeOnly, options: [.create])
        try writer.writeAll(bytes)
        try writer.close()
        let reader = try FileDescriptor.open(path, .readOnly)
        defer { try? reader.close() }
        let mapping = try MemoryMapping.readOnly(reader, count: bytes.count)
        defer { mapping.unmap() }
        #expect(Array(mapping.bytes) == bytes)
        #expect(MemoryMapping.pageSize > 0 && MemoryMapping.pageSize & (MemoryMapping.pageSize - 1) == 0)
        if let base = UnsafeMutableRawPointer(bitPattern: mapping.address) {
            MemoryMapping.dropPages(at: base, count: MemoryMapping.pageSize)
        }
        #expect(Array(mapping.bytes) == bytes, "dropped pages of a file mapping are read again from the file")
        let empty = try MemoryMapping.readOnly(reader, count: 0)
        #expect(empty.bytes.isEmpty)
        let directoryHandle = try FileDescriptor.open(directory.path, .readOnly)
        defer { try? directoryHandle.close() }
        #expect(throws: SystemCallError(operation: "map", path: directory.path, errno: ENODEV)) {
            try MemoryMapping.readOnly(directoryHandle, count: 10)
        }
    }

    @Test func sleepingWaitsAtLeastTheDurationAndNothingForZero() {
        let clock = ContinuousClock()
        let start = clock.now
        CurrentThread.sleep(for: .milliseconds(20))
        #expect(clock.now - start >= .milliseconds(20))
        CurrentThread.sleep(for: .zero)
        CurrentThread.sleep(for: .milliseconds(-5))
    }

    @Test func errnoNamesMatchTheSystemsValues() {
        #expect(Errno.noSuchFile == ENOENT && Errno.fileExists == EEXIST && Errno.isADirectory == EISDIR)
        #expect(Errno.description(of: ENOSPC) == "No space left on device")
    }
}
