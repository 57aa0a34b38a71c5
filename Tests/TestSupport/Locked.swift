import Synchronization

/// A value shared between threads, behind a lock; a class so closures can capture it.
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    /// Wraps `value`.
    public init(_ value: Value) { mutex = Mutex(value) }

    /// Runs `body` with exclusive access.
    public func withLock<R: Sendable>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }

    /// A copy of the value.
    public var value: Value { mutex.withLock { $0 } }
}
