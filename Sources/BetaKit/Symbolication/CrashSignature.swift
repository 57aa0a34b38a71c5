import AppleFormats

/// A stable key for grouping crashes: the exception type and the top frames in app code.
///
/// System frames, addresses, offsets and line numbers are left out so the same bug keeps
/// the same key across devices, OS versions and rebuilds that do not touch the code.
public struct CrashSignature: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The exception type with its signal, such as "EXC_BAD_ACCESS (SIGSEGV)".
    public var exceptionType: String
    /// Up to `frameCount` app frames, innermost first: function names, or "Image+0xOFFSET" when unsymbolicated.
    public var frames: [String]
    /// Sixteen hex digits identifying the signature.
    public var key: String

    /// How many app frames make up a signature.
    public static let frameCount = 3

    /// Builds the signature of a symbolicated report: from the exception backtrace when there is
    /// one (where the app threw), else from the crashed thread.
    public init(_ symbolicated: SymbolicatedReport) {
        // Fields are read where they are: `let report = symbolicated.report` would copy the whole
        // report (every field retained and released) for each signature.
        let exception = symbolicated.report.exception
        var type = exception?.type ?? exception?.signal ?? "UNKNOWN"
        if let signal = exception?.signal, signal != type { type += " (\(signal))" }
        // The frames' resolutions, in the order the report lists threads and then the backtrace.
        let resolutions: ArraySlice<SymbolicatedReport.FrameResolution>
        let threads = symbolicated.report.threads
        if let backtrace = symbolicated.report.lastExceptionBacktrace, !backtrace.isEmpty {
            let start = symbolicated.backtraceStart
            resolutions = symbolicated.resolutions[start ..< start + backtrace.count]
        } else if let thread = threads.firstIndex(where: \.crashed) ?? (threads.isEmpty ? nil : 0) {
            resolutions = symbolicated.resolutions[symbolicated.threadStarts[thread] ..< symbolicated.threadStarts[thread + 1]]
        } else {
            resolutions = []
        }
        var names: [String] = []
        // Whether each image is the app's, worked out once per image rather than once per frame.
        var isApp: [Int32: Bool] = [:]
        for resolution in resolutions where names.count < Self.frameCount {
            let index = resolution.imageIndex
            guard index >= 0 else { continue }
            let app: Bool
            if let known = isApp[index] {
                app = known
            } else {
                app = symbolicated.report.isAppImage(symbolicated.report.images[Int(index)])
                isApp[index] = app
            }
            guard app else { continue }
            if let function = resolution.resolved?.locations.first?.function {
                names.append(function)
            } else {
                names.append("\(symbolicated.report.images[Int(index)].name)+0x\(String(resolution.imageOffset ?? 0, radix: 16))")
            }
        }
        self.init(exceptionType: type, frames: names)
    }

    /// Builds a signature from its parts.
    public init(exceptionType: String, frames: [String]) {
        self.exceptionType = exceptionType
        self.frames = frames
        // FNV-1a over the parts joined by line breaks, fed part by part (no joined copy).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        for byte in exceptionType.utf8 { add(byte) }
        for frame in frames {
            add(UInt8(ascii: "\n"))
            for byte in frame.utf8 { add(byte) }
        }
        let digits = hash
        key = String(unsafeUninitializedCapacity: 16) { buffer in
            for position in 0 ..< 16 {
                let nibble = UInt8(truncatingIfNeeded: digits >> (60 - 4 * UInt64(position))) & 0xF
                buffer[position] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return 16
        }
    }

    /// "EXC_BAD_ACCESS (SIGSEGV) | f | g | h".
    public var description: String { ([exceptionType] + frames).joined(separator: " | ") }
}
