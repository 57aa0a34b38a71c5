import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The test-support spawner that replaces Foundation's `Process` (see `ChildProcess`).
@Suite struct ChildProcessTests {
    @Test func reportsTheExitStatusAndTheEndingSignal() throws {
        #expect(try ChildProcess("/bin/sh", ["-c", "exit 7"]).wait() == .exited(7))
        let sleeper = try ChildProcess("sleep", ["300"])
        #expect(sleeper.isRunning)
        sleeper.terminate()
        #expect(sleeper.wait() == .signalled(SIGTERM))
        #expect(sleeper.terminationStatus == SIGTERM)
        #expect(throws: ChildProcessError.self) { try ChildProcess("no-such-tool-anywhere", []) }
    }

    @Test func theChildHoldsOnlyItsThreeStandardDescriptors() throws {
        // Anything else the test process has open (other children's pipes, sockets, databases)
        // must not reach the child, or a reader waiting for its own child's end of file could wait
        // on a stranger. A pipe and a socket are open here while the child starts.
        let held = Pipe()
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketFD) }
        let result = try runToolNow("/bin/sh", ["-c", "ls /proc/$$/fd"])
        #expect(result.text.split(separator: "\n").sorted() == ["0", "1", "2"], "\(result.text)")
        withExtendedLifetime(held) {}
    }

    @Test func runToolFeedsInputAndKeepsOutputAndErrorApart() throws {
        let result = try runToolNow("/bin/sh", ["-c", "cat; echo oops >&2; exit 3"], input: Data("hello\n".utf8))
        #expect(result.status == 3)
        #expect(result.text == "hello\n")
        #expect(result.error == "oops\n")
    }

    @Test func aToolPastItsDeadlineIsKilledWithWhatItStarted() async throws {
        // The shell starts a grandchild and waits; both go when the deadline passes.
        let result = try await runTool("/bin/sh", ["-c", "sleep 300 & echo $!; wait"], timeout: 1)
        #expect(result.status == SIGTERM)
        let grandchild = try #require(Int32(result.text.trimmingCharacters(in: .whitespacesAndNewlines)))
        try await expectGone(grandchild)
    }

    @Test func aGrandchildLeftBehindNeitherBlocksTheRunNorOutlivesIt() async throws {
        // The grandchild keeps the shell's output open; with pipes the caller would wait for it.
        let result = try runToolNow("/bin/sh", ["-c", "sleep 300 & echo $!"], timeout: 120)
        #expect(result.status == 0)
        let grandchild = try #require(Int32(result.text.trimmingCharacters(in: .whitespacesAndNewlines)))
        try await expectGone(grandchild)
    }

    @Test func stopEndsTheWholeGroupAndAPipeReaderSeesTheEnd() async throws {
        let output = Pipe()
        let child = try ChildProcess("/bin/sh", ["-c", "sleep 300 & echo $!; wait"], output: .pipe(output))
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        let grandchild = try #require(Int32(line.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(child.stop(grace: 5) == .signalled(SIGTERM))
        try await expectGone(grandchild)
        // Every writer is gone, so the parent's read end reports the end of the stream.
        #expect(output.fileHandleForReading.readDataToEndOfFile().isEmpty)
    }

    @Test func theWorkingDirectoryAndEnvironmentAreTheGivenOnes() throws {
        let directory = try TemporaryDirectory("cwd")
        let result = try runToolNow("/bin/sh", ["-c", "pwd; echo \"$ONLY\"; echo \"${HOME:-unset}\""],
                                    environment: ["ONLY": "this", "PATH": "/usr/bin:/bin"], directory: directory.path)
        let lines = result.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(URL(fileURLWithPath: lines.first ?? "").resolvingSymlinksInPath().path == URL(fileURLWithPath: directory.path).resolvingSymlinksInPath().path)
        #expect(lines.dropFirst().first == "this")
        #expect(lines.last == "unset")
    }

    /// Waits (generously) for `pid` to be gone; a zombie counts as gone, since it no longer runs.
    private func expectGone(_ pid: Int32, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        // Checked once more after the deadline: on a loaded machine a sleeping task can resume long
        // after its pause, and only the process's state, not the wait, is under test.
        func state() -> Substring? {
            (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)).flatMap { $0.split(separator: ")").last?.split(separator: " ").first }
        }
        let deadline = Date().addingTimeInterval(30)
        while true {
            let now = state(), late = Date() >= deadline
            if now == nil || now == "Z" { return }
            if late {
                Issue.record("process \(pid) still runs (state \(now ?? "?"))", sourceLocation: sourceLocation)
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
