#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestSupport
@testable import PosixIO

/// The wrapped calls read and write whole buffers, keep going after short transfers and
/// interruptions, and fail with an error naming the call, the file and the system's reason.
@Suite struct FileDescriptorTests {
    @Test func whatIsWrittenIsReadBackWholeAtOffsetsAndToTheEnd() throws {
        let directory = try TemporaryDirectory("posixio")
        let path = directory.child("data.bin")
        let bytes = patternBytes(300_000)
        let file = try FileDescriptor.open(path, .readWrite, options: [.create, .exclusiveCreate], permissions: 0o600)
        try file.writeAll(bytes)
        try file.sync()
        #expect(try file.status().size == 300_000)
        #expect(try file.status().permissions == 0o600)
        #expect(try file.read(count: 10, at: 1000) == Array(bytes[1000 ..< 1010]))
        #expect(try file.read(count: 500, at: 299_800) == Array(bytes[299_800...]), "a read past the end stops at the end")
        try file.close()
        let reader = try FileDescriptor.open(path, .readOnly)
        defer { try? reader.close() }
        #expect(try reader.readToEnd(chunkSize: 4096) == bytes)
        #expect(try reader.readToEnd() == [], "nothing is left at the end")
    }

    @Test func positionedWritesLeaveTheRestOfTheFileAsItWas() throws {
        let directory = try TemporaryDirectory("posixio")
        let file = try FileDescriptor.open(directory.child("f"), .readWrite, options: [.create])
        defer { try? file.close() }
        try file.writeAll(Array("aaaaaaaaaa".utf8))
        try Array("XY".utf8).withUnsafeBytes { buffer in try file.writeAll(buffer, at: 4) }
        #expect(String(decoding: try file.read(count: 10, at: 0), as: UTF8.self) == "aaaaXYaaaa")
    }

    @Test func failuresNameTheCallTheFileAndTheReason() throws {
        let directory = try TemporaryDirectory("posixio")
        let missing = directory.child("missing/file")
        do {
            _ = try FileDescriptor.open(missing, .readOnly)
            Issue.record("a missing file opened")
        } catch {
            #expect(error.isNotFound)
            #expect(error.description == "cannot open \(missing): No such file or directory (errno \(ENOENT))")
        }
        let exists = directory.child("exists")
        try FileDescriptor.open(exists, .writeOnly, options: [.create]).close()
        #expect(throws: SystemCallError(operation: "open", path: exists, errno: EEXIST)) {
            try FileDescriptor.open(exists, .writeOnly, options: [.create, .exclusiveCreate])
        }
        let reader = try FileDescriptor.open(exists, .readOnly)
        defer { try? reader.close() }
        #expect(throws: SystemCallError(operation: "write", path: exists, errno: EBADF)) { try reader.writeAll([1]) }
    }

    @Test func aReadInterruptedByASignalIsRetriedNotReported() throws {
        // A pipe read blocks until the writer thread writes; meanwhile SIGUSR1 (with a handler
        // installed without SA_RESTART) interrupts it with EINTR, which must be retried.
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let reader = FileDescriptor(rawValue: fds[0]), writer = FileDescriptor(rawValue: fds[1])
        defer { try? reader.close() }
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = { _ in }
        #else
        action.__sigaction_u.__sa_handler = { _ in }
        #endif
        action.sa_flags = 0
        var previous = sigaction()
        sigaction(SIGUSR1, &action, &previous)
        defer { sigaction(SIGUSR1, &previous, nil) }
        let readerThread = pthread_self()
        let done = DispatchSemaphore(value: 0)
        let helper = Thread {
            defer { done.signal() }
            usleep(100_000)
            pthread_kill(readerThread, SIGUSR1)
            usleep(100_000)
            try? writer.writeAll(Array("late".utf8))
            try? writer.close()
        }
        helper.start()
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
        #expect(String(decoding: buffer[0 ..< count], as: UTF8.self) == "late")
        done.wait()
    }

    @Test func pathCallsReportKindsRenameRemoveAndMakeTemporaryFiles() throws {
        let directory = try TemporaryDirectory("posixio")
        #expect(try FileSystem.status(directory.child("none")) == nil)
        #expect(try FileSystem.status(directory.path)?.kind == .directory)
        let temporary = try FileSystem.makeTemporaryFile(template: directory.child("spool-XXXXXX"))
        let path = try #require(temporary.path)
        #expect(path.hasPrefix(directory.child("spool-")) && !path.hasSuffix("XXXXXX"))
        try temporary.writeAll(Array("x".utf8))
        try temporary.close()
        #expect(try FileSystem.status(path)?.permissions == 0o600)
        try FileSystem.makeSymbolicLink(directory.child("link"), to: "spool")
        #expect(try FileSystem.linkStatus(directory.child("link"))?.kind == .symbolicLink)
        #expect(try FileSystem.linkTarget(directory.child("link")) == "spool")
        try FileSystem.rename(path, to: directory.child("moved"))
        #expect(try FileSystem.status(directory.child("moved"))?.size == 1)
        #expect(try FileSystem.removeFile(directory.child("moved")))
        #expect(try !FileSystem.removeFile(directory.child("moved")), "removing what is gone is not an error")
        #expect(try FileSystem.makeDirectory(directory.child("sub")))
        #expect(try !FileSystem.makeDirectory(directory.child("sub")), "an existing directory is fine")
        #expect(throws: SystemCallError.self) { try FileSystem.makeDirectory(directory.child("link")) }
    }
}
