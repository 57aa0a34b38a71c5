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
        let report = symbolicated.report
        var type = report.exception?.type ?? report.exception?.signal ?? "UNKNOWN"
        if let signal = report.exception?.signal, signal != type { type += " (\(signal))" }
        // The frames' resolutions, in the order the report lists threads and then the backtrace.
        let resolutions: ArraySlice<SymbolicatedReport.FrameResolution>
        if let backtrace = report.lastExceptionBacktrace, !backtrace.isEmpty {
            let start = symbolicated.backtraceStart
            resolutions = symbolicated.resolutions[start ..< start + backtrace.count]
        } else if let thread = report.threads.firstIndex(where: \.crashed) ?? (report.threads.isEmpty ? nil : 0) {
            resolutions = symbolicated.resolutions[symbolicated.threadStarts[thread] ..< symbolicated.threadStarts[thread + 1]]
        } else {
            resolutions = []
        }
        var names: [String] = []
        for resolution in resolutions where names.count < Self.frameCount {
            guard let image = symbolicated.image(resolution), report.isAppImage(image) else { continue }
            if let function = resolution.resolved?.locations.first?.function {
                names.append(function)
            } else {
                names.append("\(image.name)+0x\(String(resolution.imageOffset ?? 0, radix: 16))")
            }
        }
        self.init(exceptionType: type, frames: names)
    }

    /// Builds a signature from its parts.
    public init(exceptionType: String, frames: [String]) {
        self.exceptionType = exceptionType
        self.frames = frames
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in ([exceptionType] + frames).joined(separator: "\n").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        key = String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// "EXC_BAD_ACCESS (SIGSEGV) | f | g | h".
    public var description: String { ([exceptionType] + frames).joined(separator: " | ") }
}
