#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemShim

/// Starts the dedicated OS threads event loops run on (POSIX threads, so the server needs no
/// Foundation `Thread`): detached, named for debuggers and `top -H`, with a chosen stack size.
enum LoopThread {
    private final class Start {
        let name: String
        let body: () -> Void
        init(name: String, body: @escaping () -> Void) {
            self.name = name
            self.body = body
        }

        func run() {
            shim_set_thread_name(name)
            body()
        }
    }

    /// Runs `body` on a new thread; fails with the `pthread_create` error number.
    static func start(name: String, stackSize: Int, _ body: @escaping @Sendable () -> Void) throws(ServerError) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        let result = pthread_create(&thread, &attributes, { raw in
            Unmanaged<Start>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, context)
        #else
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            Unmanaged<Start>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, context)
        #endif
        guard result == 0 else {
            Unmanaged<Start>.fromOpaque(context).release()
            throw .system(operation: "starting thread \(name)", errno: result)
        }
    }
}
