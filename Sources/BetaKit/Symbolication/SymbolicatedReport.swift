#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// A crash report with every frame resolved as far as the available symbols allow.
///
/// The report is kept as parsed, and beside it one small record per frame says how that frame
/// was resolved (`FrameResolution`): symbolicating and printing a report never copy its frames.
/// `threads` and `lastExceptionBacktrace` put the two together when asked.
public struct SymbolicatedReport: Sendable {
    /// The report as parsed.
    public let report: CrashReport
    /// Every image some frame points into that had no symbols, app images first.
    public internal(set) var imagesWithoutSymbols: [MissingSymbols]
    /// The grouping key for this crash.
    public internal(set) var signature: CrashSignature
    /// How each frame was resolved: every thread's frames in report order, then the exception
    /// backtrace's.
    let resolutions: [FrameResolution]
    /// Where each thread's frames start in `resolutions`, and one more entry where the exception
    /// backtrace's start.
    let threadStarts: [Int]
    /// One shared copy of each image a frame points into, by image index.
    let imageBoxes: [ImageBox?]

    /// Where the exception backtrace's frames start in `resolutions`.
    var backtraceStart: Int { threadStarts[report.threads.count] }

    init(report: CrashReport, resolutions: [FrameResolution], threadStarts: [Int], imageBoxes: [ImageBox?]) {
        self.report = report
        self.resolutions = resolutions
        self.threadStarts = threadStarts
        self.imageBoxes = imageBoxes
        imagesWithoutSymbols = []
        signature = CrashSignature(exceptionType: "", frames: [])
    }

    /// The threads, in report order, with symbolicated frames.
    public var threads: [Thread] {
        report.threads.indices.map { index in
            let thread = report.threads[index]
            return Thread(number: thread.number, name: thread.name, queue: thread.queue, crashed: thread.crashed,
                          frames: frames(thread.frames, from: threadStarts[index]))
        }
    }

    /// The exception backtrace, symbolicated, if the report has one.
    public var lastExceptionBacktrace: [Frame]? {
        report.lastExceptionBacktrace.map { frames($0, from: backtraceStart) }
    }

    private func frames(_ source: [CrashReport.Frame], from start: Int) -> [Frame] {
        source.indices.map { position in frame(source[position], resolutions[start + position]) }
    }

    /// A report frame and its resolution as one value.
    func frame(_ frame: borrowing CrashReport.Frame, _ resolution: FrameResolution) -> Frame {
        Frame(frame: copy frame, image: resolution.imageIndex >= 0 ? imageBoxes[Int(resolution.imageIndex)] : nil,
              imageOffset: resolution.imageOffset, resolved: resolution.resolved, status: resolution.status)
    }

    /// The image a resolution names, if any.
    func image(_ resolution: FrameResolution) -> CrashReport.Image? {
        resolution.imageIndex >= 0 ? report.images[Int(resolution.imageIndex)] : nil
    }

    /// How one frame was resolved; the frame itself stays in the report.
    struct FrameResolution: Sendable {
        /// The locations, nil when none are known.
        var resolved: ResolvedAddress?
        /// The frame's image in `report.images`, -1 when it is in none.
        var imageIndex: Int32
        /// How the frame was resolved.
        var status: Status
        /// The address relative to the image's load address.
        var imageOffset: UInt64?
    }

    /// A thread of symbolicated frames.
    public struct Thread: Sendable, Equatable {
        /// The thread number.
        public var number: Int
        /// The thread name, if any.
        public var name: String?
        /// The dispatch queue, if any.
        public var queue: String?
        /// Whether it crashed.
        public var crashed: Bool
        /// One entry per frame of the report, in order: none is dropped.
        public var frames: [Frame]
    }

    /// What became of one frame.
    public enum Status: String, Sendable, Codable, Equatable {
        /// Symbols were found for the address.
        case symbolicated
        /// No symbols were found, but the report itself named the function.
        case fromReport
        /// The frame's image has no symbols available.
        case noSymbols
        /// The symbols for the image say nothing about this address.
        case notFound
        /// The address is in no known image.
        case noImage
    }

    /// One frame, with its source locations (innermost inlined function first).
    ///
    /// The image and the locations are held by reference: every frame of an image shares one
    /// copy of the image, and every frame a symbolicator resolved to the same address shares its
    /// locations and their rendered text, so a frame costs little to make, copy and free.
    public struct Frame: Sendable, Equatable {
        /// The frame as the report gave it.
        public var frame: CrashReport.Frame
        /// The address relative to the image's load address.
        public var imageOffset: UInt64?
        /// How the frame was resolved.
        public var status: Status
        var imageBox: ImageBox?
        var resolved: ResolvedAddress?

        init(frame: CrashReport.Frame, image: ImageBox?, imageOffset: UInt64?, resolved: ResolvedAddress?, status: Status) {
            self.frame = frame
            imageBox = image
            self.imageOffset = imageOffset
            self.resolved = resolved
            self.status = status
        }

        /// The frame's image, if known.
        public var image: CrashReport.Image? {
            get { imageBox?.image }
            set { imageBox = newValue.map(ImageBox.init) }
        }

        /// Source locations, innermost first; empty when nothing is known.
        public var locations: [Location] {
            get { resolved?.locations ?? [] }
            set { resolved = newValue.isEmpty ? nil : ResolvedAddress(locations: newValue) }
        }

        /// Frames are equal when what they say is equal, however it is shared.
        public static func == (lhs: Frame, rhs: Frame) -> Bool {
            lhs.frame == rhs.frame && lhs.imageOffset == rhs.imageOffset && lhs.status == rhs.status && lhs.image == rhs.image
                && lhs.locations == rhs.locations
        }
    }

    /// One image of a report, shared by the frames that point into it.
    final class ImageBox: Sendable {
        let image: CrashReport.Image
        init(_ image: CrashReport.Image) { self.image = image }
    }

    /// A function and source position.
    public struct Location: Sendable, Equatable, Codable {
        /// The function as Apple shows it (Swift and C++ demangled).
        public var function: String?
        /// The raw (mangled) name.
        public var rawFunction: String?
        /// The source file path as compiled.
        public var file: String?
        /// The line, 0 when unknown.
        public var line: Int
        /// The column, 0 when unknown.
        public var column: Int
        /// Whether this function was inlined into the next location.
        public var inlined: Bool
        /// Bytes past the start of the named symbol, when known.
        public var symbolOffset: UInt64?
    }

    /// An image without symbols.
    public struct MissingSymbols: Sendable, Equatable, Codable {
        /// The image name.
        public var name: String
        /// Its UUID, if the report gives one.
        public var uuid: UUID?
        /// Whether it belongs to the app (rather than the OS).
        public var isAppImage: Bool
        /// Why there are no symbols.
        public var reason: String
    }
}

extension CrashReport {
    /// Whether `image` is part of the app (its executable or something inside its bundle)
    /// rather than the operating system.
    public func isAppImage(_ image: Image) -> Bool {
        if let path = image.path {
            if path.hasPrefix("/System/") || path.hasPrefix("/usr/") || path.hasPrefix("/Library/Apple/") { return false }
            if path == processPath { return true }
            return path.containsBytes(".app/") || path.containsBytes(".appex/") || path.containsBytes(".xctest/")
        }
        return image.name == processName
    }
}

extension String {
    /// Whether `needle` occurs in the string, compared byte by byte (no Unicode or locale work).
    func containsBytes(_ needle: StaticString) -> Bool {
        let count = needle.utf8CodeUnitCount
        guard count > 0 else { return true }
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: count)
        var text = self
        return text.withUTF8 { haystack in
            guard haystack.count >= count else { return false }
            for start in 0 ... haystack.count - count where haystack[start] == pattern[0] {
                if UnsafeBufferPointer(rebasing: haystack[start ..< start + count]).elementsEqual(pattern) { return true }
            }
            return false
        }
    }
}
