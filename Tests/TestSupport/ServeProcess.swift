import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `betactl serve` (or `demo`) running as a separate process on a free loopback port, as a user runs it.
/// Everything it writes to standard error (messages and the access log) is collected.
public final class ServeProcess: @unchecked Sendable {
    /// The process.
    public let process: ChildProcess
    /// The port it listens on.
    public let port: Int
    private let lines: Locked<[String]>
    private let stdoutLines: Locked<[String]>
    /// Left by each output reader at the end of its stream, so a stopped server's last lines
    /// (such as "server stopped") are collected before `stop` returns.
    private let readers = DispatchGroup()

    /// `http://127.0.0.1:PORT`.
    public var base: String { "http://127.0.0.1:\(port)" }

    /// Starts `betactl ARGUMENTS` (which must make it listen on `127.0.0.1:0`) and waits until it says
    /// where it listens.
    public init(_ cli: Betactl, _ arguments: [String], timeout: TimeInterval = 60) throws {
        let err = Pipe(), out = Pipe()
        process = try cli.start(arguments, stdout: out, stderr: err)
        let collected = Locked<[String]>([])
        let printed = Locked<[String]>([])
        lines = collected
        stdoutLines = printed
        let ready = DispatchSemaphore(value: 0)
        let found = Locked<Int?>(nil)
        Self.readLines(err.fileHandleForReading, group: readers) { line in
            collected.withLock { $0.append(line) }
            if let range = line.range(of: "listening on http://127.0.0.1:"),
               let port = Int(line[range.upperBound...].prefix { $0.isNumber }) {
                let first = found.withLock { value -> Bool in
                    defer { if value == nil { value = port } }
                    return value == nil
                }
                if first { ready.signal() }
            }
        }
        Self.readLines(out.fileHandleForReading, group: readers) { line in printed.withLock { $0.append(line) } }
        if ready.wait(timeout: .now() + timeout) == .timedOut || found.value == nil {
            process.terminate()
            process.waitUntilExit()
            throw ServeProcessError(output: collected.value.joined(separator: "\n"))
        }
        port = found.value ?? 0
    }

    private static func readLines(_ handle: FileHandle, group: DispatchGroup, _ body: @escaping @Sendable (String) -> Void) {
        group.enter()
        let thread = Thread {
            defer { group.leave() }
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 0x0A) {
                    body(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
            }
            if !buffer.isEmpty { body(String(decoding: buffer, as: UTF8.self)) }
        }
        thread.start()
    }

    /// Standard error so far, one entry per line.
    public var errorLines: [String] { lines.value }
    /// Standard output so far, one entry per line.
    public var outputLines: [String] { stdoutLines.value }

    /// Sends SIGTERM and waits (up to `timeout`) for the exit status.
    @discardableResult
    public func stop(timeout: TimeInterval = 30) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return -1
        }
        process.waitUntilExit()
        drainOutput()
        return process.terminationStatus
    }

    /// Waits (briefly: a grandchild may hold the pipes) for the readers to reach the end of the
    /// server's output, so `errorLines` and `outputLines` hold everything it wrote.
    func drainOutput(timeout: TimeInterval = 10) {
        _ = readers.wait(timeout: .now() + timeout)
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}

/// The server did not start; `output` is what it printed.
public struct ServeProcessError: Error, CustomStringConvertible {
    /// Standard error of the failed start.
    public var output: String
    /// The output, for the test log.
    public var description: String { "betactl serve did not start listening:\n\(output)" }
}

/// A parsed HTTP response from `curl`.
public struct CurlResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields, names lowercased; the last value wins.
    public var headers: [String: String]
    /// The body.
    public var body: Data
    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// A response made by other means than curl (an in-process server).
    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Fetches `url` with curl (`-s`, no retries), with extra arguments such as `-H` or `-r`.
public func curl(_ url: String, _ arguments: [String] = []) async throws -> CurlResponse {
    let directory = try TemporaryDirectory("curl")
    let headerFile = directory.child("headers")
    let all = ["-s", "-S", "--max-time", "120", "-D", headerFile, "-o", directory.child("body")] + arguments + [url]
    // curl obeys the last --max-time it is given; the process deadline follows it with a margin,
    // so curl's own limit (with its message) always comes first. A fixed 120 s deadline once
    // killed a 300 MB upload on a busy machine, silently, while curl still had 900 s to go.
    var maxTime: TimeInterval = 120
    for (option, value) in zip(all, all.dropFirst()) where option == "--max-time" {
        if let seconds = TimeInterval(value) { maxTime = seconds }
    }
    let deadline = maxTime + 60
    let started = Date()
    let result = try await runTool("curl", all, timeout: deadline)
    guard result.status == 0 else {
        let elapsed = Date().timeIntervalSince(started)
        let stderr: String = result.error.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines)
        let said: String = stderr.isEmpty ? "curl wrote nothing on standard error" : stderr
        // Only a curl the deadline actually killed is said to be killed: on a very busy machine a
        // curl that failed on its own can still return after the deadline has passed.
        let killed: String = result.timedOut ? "; killed at the test's own deadline of \(Int(deadline)) s" : ""
        let message = "\(said) (exit status \(result.status) after \(Int(elapsed)) s\(killed))"
        throw CurlError(url: url, message: message)
    }
    let rawHeaders = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
    // With redirects or 100-continue there can be several heads; the last one is the response.
    let lastHead = rawHeaders.components(separatedBy: "\r\n\r\n").filter { !$0.isEmpty }.last ?? ""
    var status = 0
    var headers: [String: String] = [:]
    for (index, line) in lastHead.components(separatedBy: "\r\n").enumerated() {
        if index == 0 {
            status = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        } else if let colon = line.firstIndex(of: ":") {
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }
    let body = (try? Data(contentsOf: URL(fileURLWithPath: directory.child("body")))) ?? Data()
    return CurlResponse(status: status, headers: headers, body: body)
}

/// curl itself failed (connection refused, timeout).
public struct CurlError: Error, CustomStringConvertible {
    /// The URL fetched.
    public var url: String
    /// curl's message on standard error, its exit status and how long it ran.
    public var message: String
    /// Both.
    public var description: String { "curl \(url) failed: \(message)" }
}
