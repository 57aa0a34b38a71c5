import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ChildProcess {
    /// `posix_spawn` with the child's streams set up, every other descriptor closed, its own process
    /// group and default signal handling.
    /// A stream as the spawning thread needs it: descriptors, not Foundation objects.
    enum Target: Sendable {
        case null
        case file(String)
        case descriptor(Int32)

        init(_ stream: Stream, fd: Int) {
            switch stream {
            case .null: self = .null
            case .file(let path): self = .file(path)
            case .pipe(let pipe): self = .descriptor(fd == 0 ? pipe.fileHandleForReading.fileDescriptor : pipe.fileHandleForWriting.fileDescriptor)
            }
        }
    }

    static func spawn(_ argv: [String], _ envp: [String], _ streams: [Target]) throws -> pid_t {
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        for (index, stream) in streams.enumerated() {
            let fd = Int32(index)
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, fd, path, fd == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .descriptor(let source):
                posix_spawn_file_actions_adddup2(&actions, source, fd)
            }
        }
        closeOthers(&actions)

        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        // The test process ignores SIGPIPE; a tool must not inherit that.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD, SIGUSR1, SIGUSR2] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        let flags = Int32(POSIX_SPAWN_SETPGROUP) | Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var pid: pid_t = 0
        let status = argv[0].withCString { path in
            withCStrings(argv) { argvPointers in
                withCStrings(envp) { envPointers in
                    posix_spawn(&pid, path, &actions, &attributes, argvPointers, envPointers)
                }
            }
        }
        guard status == 0 else {
            throw ChildProcessError(executable: argv.joined(separator: " "), reason: String(cString: strerror(status)))
        }
        return pid
    }

    #if canImport(Glibc)
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    /// glibc 2.34's `posix_spawn_file_actions_addclosefrom_np`, found at run time because Swift's
    /// Glibc module is not built with `_GNU_SOURCE`.
    private static let closeFrom: CloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: CloseFrom.self)
    }()

    private static func closeOthers(_ actions: inout posix_spawn_file_actions_t) {
        _ = closeFrom?(&actions, 3)
    }
    #else
    private static func closeOthers(_ actions: inout posix_spawn_file_actions_t?) {
        // Darwin has POSIX_SPAWN_CLOEXEC_DEFAULT instead; macOS is built, not tested.
    }
    #endif
}

/// A NULL-terminated `char *[]` for the duration of `body`.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
}

/// One thread that lives as long as the test process and starts every child. Linux delivers a
/// child's parent-death signal when the thread that spawned it ends, so spawning from short-lived
/// threads would kill children early; one thread also keeps spawns from racing each other.
final class SpawnThread: @unchecked Sendable {
    static let shared = SpawnThread()
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []

    private init() {
        let thread = Thread { [self] in loop() }
        thread.name = "TestSupport.spawn"
        thread.start()
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }

    /// Runs `body` on the spawning thread and returns its result.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Result<T, any Error>?>(nil)
        condition.lock()
        jobs.append {
            let outcome = Result { try body() }
            result.withLock { $0 = outcome }
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        guard let outcome = result.value else { throw ChildProcessError(executable: "?", reason: "spawn thread gave no result") }
        return try outcome.get()
    }
}
