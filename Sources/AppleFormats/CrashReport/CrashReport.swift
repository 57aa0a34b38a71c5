#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An Apple crash report, whatever file format it came in.
///
/// Values are kept as the report states them (strings for versions and dates) so that
/// rendering can reproduce them; addresses are absolute in the crashed process.
public struct CrashReport: Sendable, Equatable, Codable {
    /// The file formats betactl reads.
    public enum Format: String, Sendable, Codable {
        /// A text report (`.crash`, report versions 104 and 105), optionally after a JSON header line.
        case text
        /// A JSON `.ips` report with bug_type 309 (iOS 15 and later, macOS 12 and later).
        case ips
        /// An iOS 14 `.ips`: a JSON header line, then a text report as the body (bug_type 109).
        case ipsText
        /// A KSCrash or SentryCrash JSON report, converted by `KSCrashReport.crashReport()`.
        case kscrash
    }

    /// The file format.
    public var format: Format
    /// The `bug_type` of an `.ips` header line (309, 109, …).
    public var bugType: String?
    /// `Incident Identifier`.
    public var incidentIdentifier: String?
    /// The process name (`Process:` without the pid).
    public var processName: String?
    /// The process id.
    public var processID: Int?
    /// The executable's path on the device.
    public var processPath: String?
    /// `Identifier`: the bundle identifier.
    public var bundleIdentifier: String?
    /// The marketing version (`CFBundleShortVersionString`).
    public var version: String?
    /// The build number (`CFBundleVersion`).
    public var build: String?
    /// `OS Version`, such as "iPhone OS 17.4.1 (21E236)".
    public var osVersion: String?
    /// `Hardware Model`, such as "iPhone14,5".
    public var hardwareModel: String?
    /// `Code Type`, such as "ARM-64 (Native)".
    public var codeType: String?
    /// `Date/Time` as written.
    public var date: String?
    /// `Report Version`.
    public var reportVersion: String?
    /// What stopped the process.
    public var exception: Exception?
    /// `Termination Reason`, if stated.
    public var terminationReason: String?
    /// `Application Specific Information`, if any.
    public var applicationSpecificInformation: String?
    /// The thread that crashed (`Triggered by Thread`, `Crashed Thread`, `faultingThread`).
    public var crashedThread: Int?
    /// Every thread, in report order.
    public var threads: [Thread]
    /// The backtrace of the uncaught exception (`Last Exception Backtrace`), if present.
    public var lastExceptionBacktrace: [Frame]?
    /// The loaded images (`Binary Images`, `usedImages`).
    public var images: [Image]
    /// The original text of a text-format report, which rendering edits in place.
    public var text: String?

    /// Most frames a text report may have: a hostile report of millions of one-line frames is
    /// refused rather than held in memory. Real reports have a few thousand at most.
    static let maxTextFrames = 100_000

    /// Creates an empty report of `format`.
    public init(format: Format) {
        self.format = format
        threads = []
        images = []
    }

    /// An exception or signal.
    public struct Exception: Sendable, Equatable, Codable {
        /// The Mach exception or signal type, such as "EXC_BAD_ACCESS" or "SIGSEGV".
        public var type: String?
        /// The signal, such as "SIGSEGV".
        public var signal: String?
        /// `Exception Codes`.
        public var codes: String?
        /// `Exception Subtype`, such as "KERN_INVALID_ADDRESS at 0x0".
        public var subtype: String?
        /// `Exception Note` or the exception message.
        public var note: String?

        /// Creates an exception description.
        public init(type: String? = nil, signal: String? = nil, codes: String? = nil, subtype: String? = nil, note: String? = nil) {
            self.type = type
            self.signal = signal
            self.codes = codes
            self.subtype = subtype
            self.note = note
        }
    }

    /// One thread's backtrace.
    public struct Thread: Sendable, Equatable, Codable {
        /// The thread number.
        public var number: Int
        /// The thread's name, if any.
        public var name: String?
        /// The dispatch queue it was running, if any.
        public var queue: String?
        /// Whether this thread crashed.
        public var crashed: Bool
        /// Frames, innermost (frame 0) first.
        public var frames: [Frame]

        /// Creates a thread.
        public init(number: Int, name: String? = nil, queue: String? = nil, crashed: Bool = false, frames: [Frame] = []) {
            self.number = number
            self.name = name
            self.queue = queue
            self.crashed = crashed
            self.frames = frames
        }
    }

    /// One stack frame.
    public struct Frame: Sendable, Equatable, Codable {
        /// The frame's number within its backtrace.
        public var number: Int
        /// The absolute address: the pc for frame 0, a return address for the others.
        public var address: UInt64
        /// The index of the frame's image in `images`, when known.
        public var imageIndex: Int?
        /// The image name as the report writes it on the frame.
        public var imageName: String?
        /// A symbol the report already carries (partially symbolicated reports).
        public var symbol: String?
        /// The offset from `symbol`.
        public var symbolOffset: UInt64?
        /// A source file the report already names.
        public var sourceFile: String?
        /// The line in `sourceFile`.
        public var sourceLine: Int?
        /// Where the frame's line is in `text` (text formats), so rendering can replace it.
        public var textLine: Int?

        /// Creates a frame.
        public init(number: Int, address: UInt64, imageIndex: Int? = nil, imageName: String? = nil) {
            self.number = number
            self.address = address
            self.imageIndex = imageIndex
            self.imageName = imageName
        }

        /// Every field at once: parsers make a frame in one step rather than filling in a `var`,
        /// which the optimiser copies (strings retained and released) when it is returned.
        init(number: Int, address: UInt64, imageIndex: Int? = nil, imageName: String?, symbol: String? = nil, symbolOffset: UInt64? = nil,
             sourceFile: String? = nil, sourceLine: Int? = nil, textLine: Int?) {
            self.number = number
            self.address = address
            self.imageIndex = imageIndex
            self.imageName = imageName
            self.symbol = symbol
            self.symbolOffset = symbolOffset
            self.sourceFile = sourceFile
            self.sourceLine = sourceLine
            self.textLine = textLine
        }
    }

    /// A loaded image.
    public struct Image: Sendable, Equatable, Codable {
        /// The image's short name (a file name, or a bundle identifier in old macOS reports).
        public var name: String
        /// The path on the device.
        public var path: String?
        /// The LC_UUID, which selects the dSYM.
        public var uuid: UUID?
        /// The architecture as written ("arm64", "arm64e", "x86_64", …).
        public var architecture: String?
        /// Where the image was loaded.
        public var loadAddress: UInt64
        /// The last address of the image, when stated.
        public var endAddress: UInt64?
        /// The bundle identifier, when stated separately from the name.
        public var bundleIdentifier: String?

        /// Creates an image.
        public init(name: String, path: String? = nil, uuid: UUID? = nil, architecture: String? = nil, loadAddress: UInt64, endAddress: UInt64? = nil) {
            self.name = name
            self.path = path
            self.uuid = uuid
            self.architecture = architecture
            self.loadAddress = loadAddress
            self.endAddress = endAddress
        }

        /// Whether `address` falls inside the image.
        public func contains(_ address: UInt64) -> Bool {
            guard address >= loadAddress else { return false }
            if let endAddress { return address <= endAddress }
            return false
        }
    }
}

extension CrashReport {
    /// The image a frame belongs to: the one named by index, else the one whose range holds the
    /// address, else the one with the frame's image name.
    public func image(for frame: Frame) -> Image? {
        if let index = frame.imageIndex, images.indices.contains(index) { return images[index] }
        if let byAddress = images.first(where: { $0.contains(frame.address) }) { return byAddress }
        if let name = frame.imageName { return images.first { $0.name == name || $0.bundleIdentifier == name } }
        return nil
    }

    /// The crashed thread, if the report says which it is.
    public var crashingThread: Thread? {
        threads.first { $0.crashed } ?? crashedThread.flatMap { number in threads.first { $0.number == number } }
    }
}
