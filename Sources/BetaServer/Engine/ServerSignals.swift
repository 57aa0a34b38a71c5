#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemShim
import Synchronization

/// The write end of the pipe the signal handler reports to (-1 until installed). An atomic global
/// because a C signal handler can capture nothing.
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// Runs in whatever thread the kernel picked: only async-signal-safe work (one `write`).
private func reportTerminationSignal(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    let descriptor = signalPipeWriteEnd.load(ordering: .acquiring)
    if descriptor >= 0 { _ = write(descriptor, &byte, 1) }
    errno = saved
}

/// Turns SIGTERM and SIGINT into a callback (for graceful shutdown) instead of killing the process.
///
/// A real handler is installed synchronously with `signal`, so a signal that arrives at any moment
/// after `onTermination` returns is delivered. It writes the signal number to a pipe that a
/// dedicated thread reads. That thread unblocks both signals, so the kernel always has a thread to
/// deliver them to even where libdispatch has blocked them in its own threads. (Dispatch signal
/// sources register asynchronously, and a signal in that window used to be ignored.)
public enum ServerSignals {
    private static let handlers = Mutex<[@Sendable (String) -> Void]>([])

    /// Calls `handler` with the signal name each time SIGTERM or SIGINT arrives.
    public static func onTermination(_ handler: @escaping @Sendable (String) -> Void) throws(ServerError) {
        try handlers.withLock { list throws(ServerError) in
            if list.isEmpty { try install() }
            list.append(handler)
        }
    }

    /// Starts the reading thread first and installs the handlers last, so a failure leaves the
    /// default dispositions in place rather than handlers writing to a pipe nobody reads.
    private static func install() throws(ServerError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .system(operation: "creating the signal pipe", errno: errno) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        // A burst of signals must never block the handler: excess bytes are dropped, and one is enough.
        _ = shim_set_nonblocking(writeEnd)
        do {
            // The handlers log and start the shutdown: a loop thread's stack, only reserved until used.
            try LoopThread.start(name: "signals", stackSize: 1 << 20) {
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, SIGTERM)
                sigaddset(&set, SIGINT)
                pthread_sigmask(SIG_UNBLOCK, &set, nil)
                var byte: UInt8 = 0
                while true {
                    let count = read(readEnd, &byte, 1)
                    if count < 0 && errno == EINTR { continue }
                    guard count == 1 else { return }
                    let name = Int32(byte) == SIGINT ? "SIGINT" : "SIGTERM"
                    for handler in handlers.withLock({ $0 }) { handler(name) }
                }
            }
        } catch {
            close(readEnd)
            close(writeEnd)
            throw error
        }
        signalPipeWriteEnd.store(writeEnd, ordering: .releasing)
        for number in [SIGTERM, SIGINT] { _ = signal(number, reportTerminationSignal) }
    }
}
