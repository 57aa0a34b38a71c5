#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// A crash report with every frame resolved as far as the available symbols allow.
public struct SymbolicatedReport: Sendable {
    /// The report as parsed.
    public var report: CrashReport
    /// The threads, in report order, with symbolicated frames.
    public var threads: [Thread]
    /// The exception backtrace, symbolicated, if the report has one.
    public var lastExceptionBacktrace: [Frame]?
    /// Every image some frame points into that had no symbols, app images first.
    public var imagesWithoutSymbols: [MissingSymbols]
    /// The grouping key for this crash.
    public var signature: CrashSignature

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
    public struct Frame: Sendable, Equatable {
        /// The frame as the report gave it.
        public var frame: CrashReport.Frame
        /// The frame's image, if known.
        public var image: CrashReport.Image?
        /// The address relative to the image's load address.
        public var imageOffset: UInt64?
        /// Source locations, innermost first; empty when nothing is known.
        public var locations: [Location]
        /// How the frame was resolved.
        public var status: Status
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
