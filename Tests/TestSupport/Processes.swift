import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs blocking work (sockets, child processes) on its own thread so the cooperative pool,
/// which also runs the server's handlers, is never starved.
public func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.start()
    }
}

/// The result of running a command-line tool.
public struct ToolResult: Sendable {
    /// The exit status.
    public var status: Int32
    /// Standard output.
    public var output: Data
    /// Standard error as text.
    public var error: String
    /// Whether the tool outlived its deadline and was killed.
    public var timedOut = false
    /// Standard output as text.
    public var text: String { String(decoding: output, as: UTF8.self) }
}

/// Runs `tool arguments...` (looked up in `PATH`), feeding `input`, with a generous deadline after
/// which the tool and everything it started are killed; `environment`, when given, replaces the
/// inherited one. Output goes through files, so a chatty tool never blocks on a full pipe and a
/// grandchild that keeps a descriptor open cannot keep the caller waiting.
public func runTool(_ tool: String, _ arguments: [String], input: Data? = nil, timeout: TimeInterval = 120,
                    environment: [String: String]? = nil) async throws -> ToolResult {
    try await blocking { try runToolNow(tool, arguments, input: input, timeout: timeout, environment: environment) }
}

/// `runTool` for code that is already on a thread of its own.
public func runToolNow(_ tool: String, _ arguments: [String], input: Data? = nil, timeout: TimeInterval = 120,
                       environment: [String: String]? = nil, directory: String? = nil) throws -> ToolResult {
    let scratch = try TemporaryDirectory("tool")
    var inputStream = ChildProcess.Stream.null
    if let input {
        try input.write(to: URL(fileURLWithPath: scratch.child("stdin")))
        inputStream = .file(scratch.child("stdin"))
    }
    let child = try ChildProcess(tool, arguments, environment: environment, directory: directory, input: inputStream,
                                 output: .file(scratch.child("stdout")), error: .file(scratch.child("stderr")))
    let timedOut = child.wait(timeout: timeout) == nil
    if timedOut { child.stop() }
    // Whatever the tool left running in its group goes too (a run is over when its tool is).
    child.killGroup()
    let output = (try? Data(contentsOf: URL(fileURLWithPath: scratch.child("stdout")))) ?? Data()
    let errors = (try? Data(contentsOf: URL(fileURLWithPath: scratch.child("stderr")))) ?? Data()
    return ToolResult(status: child.terminationStatus, output: output, error: String(decoding: errors, as: UTF8.self), timedOut: timedOut)
}

/// A blocking loopback TCP client for sending exact bytes, including malformed ones.
public final class RawClient: @unchecked Sendable {
    /// The socket.
    public let fd: Int32

    /// Connects to `host:port` on loopback.
    public init(port: Int, host: String = "127.0.0.1", receiveTimeout: Int = 30) throws {
        let isV6 = host.contains(":")
        #if canImport(Glibc)
        fd = socket(isV6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(isV6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var result: Int32
        if isV6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, host, &address.sin_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard result == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(fd) }

    /// Sends all of `bytes`; returns false if the peer reset the connection.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { RawClient.systemSend(fd, $0.baseAddress! + offset, $0.count - offset) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    public static func systemSend(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.send(fd, pointer, count, Int32(MSG_NOSIGNAL))
        #else
        Darwin.send(fd, pointer, count, 0)
        #endif
    }

    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads until the server closes (or the receive timeout); `reset` tells whether it ended with RST.
    public func readToEnd() -> (bytes: [UInt8], reset: Bool, timedOut: Bool) {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if count > 0 {
                result += buffer[0..<count]
                continue
            }
            if count == 0 { return (result, false, false) }
            if errno == EINTR { continue }
            return (result, errno == ECONNRESET, errno == EAGAIN || errno == EWOULDBLOCK)
        }
    }

    /// Reads until `bytes` contain `terminator` at least `count` times.
    public func read(until terminator: String, count: Int = 1) -> String {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while String(decoding: result, as: UTF8.self).components(separatedBy: terminator).count - 1 < count {
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if got <= 0 { break }
            result += buffer[0..<got]
        }
        return String(decoding: result, as: UTF8.self)
    }

    public func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Reads whatever has arrived without waiting; `ended` tells whether the server closed or
    /// reset the connection.
    public func readAvailable() -> (bytes: [UInt8], ended: Bool) {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                raw.baseAddress.map { recv(fd, $0, raw.count, Int32(MSG_DONTWAIT)) } ?? 0
            }
            if count > 0 {
                result += buffer[0..<count]
                continue
            }
            if count < 0 && errno == EINTR { continue }
            return (result, count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
        }
    }
}

/// Raises this process's soft open-file limit to at least `wanted` (within the hard limit), for
/// tests that hold many sockets at once; returns the limit now in force.
@discardableResult
public func raiseOpenFileLimit(to wanted: UInt64) -> UInt64 {
    var limit = rlimit()
    #if canImport(Glibc)
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limit) == 0 else { return 0 }
    if UInt64(limit.rlim_cur) < wanted {
        limit.rlim_cur = rlim_t(min(wanted, UInt64(limit.rlim_max)))
        _ = setrlimit(resource, &limit)
        _ = getrlimit(resource, &limit)
    }
    return UInt64(limit.rlim_cur)
}

/// CPU time (user plus system) a process has used so far, read from /proc (Linux only; nil elsewhere).
public func processCPUSeconds(_ pid: Int32) -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = text.lastIndex(of: ")") else { return nil }
    // Fields after the parenthesised command name: state is field 3, utime 14 and stime 15.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}
