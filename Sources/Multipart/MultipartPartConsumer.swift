/// Where one part's body goes while it is parsed: the parser hands it the bytes as they pass,
/// so a caller can store, hash or reject a 2 GB upload without it ever being in memory.
///
/// The parser asks its consumer factory for one consumer per part, once the part's headers are
/// read, and then calls `consume` any number of times, then exactly one of `finish` (the part
/// is complete) or `discard` (the parse failed; `discard` may also follow a `finish` that threw).
/// A consumer that is simply dropped (the parser abandoned without `finish`) must release what it
/// holds on deinit, as `SpoolingConsumer` does.
///
/// When the whole parse fails, the values of parts finished before are dropped, so a value that
/// owns a resource (a file) should release it when it goes away, as `SpooledFile` does.
public protocol MultipartPartConsumer {
    /// What a finished part becomes.
    associatedtype Value

    /// Takes the next bytes of the part's body; they are valid only during the call.
    mutating func consume(_ bytes: UnsafeRawBufferPointer) throws

    /// The part's body is complete: returns its value.
    mutating func finish() throws -> Value

    /// The part will not complete: removes whatever was stored.
    mutating func discard()
}
