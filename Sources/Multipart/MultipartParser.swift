/// A streaming multipart/form-data parser (RFC 7578 on RFC 2046 §5.1).
///
/// Feed it the body in chunks of any size as they arrive, then call `finish()`: the result does
/// not depend on where the chunks were split. Each part's headers are read as soon as they are
/// complete and handed to the consumer factory, which chooses where the part's body goes; the body
/// then streams to that consumer. The parser itself holds at most one header section and a few
/// dozen bytes of a possible boundary, so a 500 MB part never sits in memory unless its consumer
/// keeps it.
///
/// Rules, all checked at the byte that breaks them:
/// - Boundary lines and part headers must end with CRLF: a bare LF (or CR) there is refused.
///   Part bodies are opaque, so LF-only text inside them is kept as sent. (Accepting LF-only
///   delimiters would make a body with `\n--boundary` inside a file ambiguous.)
/// - A boundary line may carry spaces or tabs before its CRLF (RFC 2046 transport padding), up to
///   256 of them. Any other text after the boundary is an error, not content: RFC 2046 forbids the
///   boundary inside the content and treats a longer string that starts with it as the boundary.
/// - `--boundary` not preceded by CRLF, and `--` alone, are content.
/// - Text before the first boundary (preamble) and after the closing one (epilogue, whatever it
///   holds) is skipped up to the limits. The closing boundary need not be followed by CRLF.
/// - A body with the closing boundary and no parts gives no parts (browsers send that for an
///   empty form).
/// - When any rule or limit fails the parse stops for good: the open part's consumer is told to
///   discard, finished parts are dropped (their spool files removed), and every later call throws
///   the same error.
public struct MultipartParser<Consumer: MultipartPartConsumer> {
    /// Chooses a consumer for a part from its head; throw to refuse the part.
    public typealias ConsumerFactory = (MultipartPartHead) throws -> Consumer

    /// The boundary from the Content-Type.
    public let boundary: MultipartBoundary
    /// The limits in force.
    public let limits: MultipartLimits
    /// Whether one CRLF directly before the closing boundary is dropped from the last part.
    ///
    /// RFC 2046 §5.1.1 attaches the CRLF before every boundary to the boundary, so a last part
    /// sent as `value CRLF CRLF --boundary--` has the value `value CRLF`. HockeySDK's crash
    /// upload (BITCrashManager `postBodyWithXML`) writes every part as `value CRLF` and then adds
    /// `CRLF --boundary-- CRLF`, so its last part arrives with one CRLF the SDK never meant.
    /// A browser uploading a file that ends in CRLF as the last part sends exactly the same
    /// bytes, so no parser can tell the two apart: the caller decides per endpoint. Set this for
    /// HockeySDK's upload route only; it strips one CRLF (not more) and only from the last part.
    public let stripsCRLFBeforeCloseDelimiter: Bool
    let makeConsumer: ConsumerFactory

    /// Where in the body the parser is.
    enum State {
        /// Before the first boundary.
        case preamble
        /// Just after `CRLF--boundary`; `heldCRLF` says two content bytes (CRLF) are held back
        /// until it is known whether this is the closing boundary.
        case afterBoundary(heldCRLF: Bool)
        /// After `CRLF--boundary-`.
        case closing(heldCRLF: Bool)
        /// Spaces or tabs after a boundary.
        case padding(Int)
        /// The CR ending a boundary line was read.
        case boundaryLineCR
        /// Reading a part's header section.
        case headers
        /// Reading a part's body.
        case content
        /// After the closing boundary.
        case epilogue
    }

    /// The part whose body is being read.
    struct OpenPart {
        var head: MultipartPartHead
        var consumer: Consumer
        var received: Int64
        var limit: Int64
    }

    var state = State.preamble
    /// Bytes of the previous chunk that were not consumed: the start of a possible delimiter.
    /// It starts as a CRLF, so a body opening with `--boundary` needs no special case.
    var carry: [UInt8] = [0x0D, 0x0A]
    var fed: Int64 = 0
    /// Preamble bytes skipped; starts at -2 for the CRLF the carry starts with.
    var preambleCount = -2
    var epilogueCount = 0
    var header: [UInt8] = []
    var openPart: OpenPart?
    /// The part most recently started, for naming boundary-line errors.
    var lastStarted: MultipartError.Part?
    var parts: [MultipartPart<Consumer.Value>] = []
    var failure: MultipartError?
    var isFinished = false

    /// Most spaces or tabs accepted after a boundary.
    static var maximumPadding: Int { 256 }

    /// A parser for one body; `makeConsumer` is called once per part, in order.
    public init(boundary: MultipartBoundary, limits: MultipartLimits = MultipartLimits(),
                stripsCRLFBeforeCloseDelimiter: Bool = false, makeConsumer: @escaping ConsumerFactory) {
        self.boundary = boundary
        self.limits = limits
        self.stripsCRLFBeforeCloseDelimiter = stripsCRLFBeforeCloseDelimiter
        self.makeConsumer = makeConsumer
    }

    /// Parses the next bytes of the body.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) throws(MultipartError) {
        if let failure { throw failure }
        guard !isFinished else { throw .alreadyFinished }
        do throws(MultipartError) {
            let allowed = limits.totalBytes - fed
            if Int64(chunk.count) > allowed {
                // Parse up to the limit first, so an earlier problem is reported as it would be
                // had the body arrived in other pieces.
                let within = Int(max(0, allowed))
                fed += Int64(within)
                try process(UnsafeRawBufferPointer(rebasing: chunk[..<within]))
                throw MultipartError.totalTooLarge(limit: limits.totalBytes)
            }
            fed += Int64(chunk.count)
            try process(chunk)
        } catch {
            fail(error)
            throw error
        }
    }

    /// Parses the next bytes of the body.
    public mutating func feed(_ chunk: [UInt8]) throws(MultipartError) {
        try chunk.withBytes { (bytes) throws(MultipartError) in try feed(bytes) }
    }

    /// Ends the body: returns every part in order, or throws if the body stopped before its
    /// closing boundary.
    public mutating func finish() throws(MultipartError) -> [MultipartPart<Consumer.Value>] {
        if let failure { throw failure }
        guard !isFinished else { throw .alreadyFinished }
        switch state {
        case .epilogue:
            isFinished = true
            defer { parts = [] }
            return parts
        case .preamble:
            let error = MultipartError.boundaryNotFound(boundary: boundary.value)
            fail(error)
            throw error
        case .headers:
            let error = MultipartError.truncated(boundary: boundary.value, part: MultipartError.Part(number: parts.count + 1))
            fail(error)
            throw error
        default:
            let error = MultipartError.truncated(boundary: boundary.value, part: openPart?.head.reference)
            fail(error)
            throw error
        }
    }

    /// Stops for good: the open part is discarded and finished parts are dropped.
    mutating func fail(_ error: MultipartError) {
        failure = error
        openPart?.consumer.discard()
        openPart = nil
        parts.removeAll()
        carry = []
        header = []
    }
}

extension MultipartParser where Consumer == SpoolingConsumer {
    /// A parser storing every part with `SpoolingConsumer`: in memory up to `memoryThreshold`
    /// bytes, beyond that in a file in `spoolDirectory`.
    public init(boundary: MultipartBoundary, limits: MultipartLimits = MultipartLimits(),
                spoolDirectory: String, memoryThreshold: Int = 1 << 20, stripsCRLFBeforeCloseDelimiter: Bool = false) {
        self.init(boundary: boundary, limits: limits, stripsCRLFBeforeCloseDelimiter: stripsCRLFBeforeCloseDelimiter) { _ in
            SpoolingConsumer(directory: spoolDirectory, memoryThreshold: memoryThreshold)
        }
    }
}
