#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A crash report written by KSCrash, or by SentryCrash (its fork inside sentry-cocoa), in the
/// JSON layout of report versions 2.x and 3.x: `report`, `system`, `crash` (error and threads)
/// and, for standard reports, `binary_images`.
///
/// Images carry UUID, architecture and load address, and every thread's frames their instruction
/// addresses, so `crashReport()` can feed the same `Symbolicator` as Apple's own reports.
public struct KSCrashReport: Sendable, Equatable {
    /// The report format version as written: "2.0" for `{major, minor}` objects, else the string ("3.4.0").
    public var formatVersion: String
    /// `report.id`.
    public var reportID: String?
    /// `report.type`: `standard`, `minimal` or `custom`.
    public var reportType: String?
    /// `report.timestamp`, as RFC 3339 text (numeric timestamps of raw 3.x reports are converted).
    public var timestamp: String?
    /// The process name (`system.process_name`, else `report.process_name`).
    public var processName: String?
    /// What the `system` section says about the app and the device.
    public var system: System
    /// What stopped the process.
    public var error: Error?
    /// KSCrash's own diagnosis (`crash.diagnosis`), when it made one.
    public var diagnosis: String?
    /// The threads, in report order (a minimal report has only the crashed one).
    public var threads: [Thread]
    /// The loaded images; empty when the report has no `binary_images`.
    public var images: [Image]
    /// Whether the report had a `binary_images` section at all.
    public var hasBinaryImages: Bool

    /// The `system` section.
    public struct System: Sendable, Equatable {
        /// `system_name`, such as "iPhone OS" or "iOS".
        public var systemName: String?
        /// `system_version`, such as "17.4.1".
        public var systemVersion: String?
        /// `os_version`: the OS build, such as "21E236".
        public var osBuild: String?
        /// `machine`: the model code, such as "iPhone14,5".
        public var machine: String?
        /// `model`: the board, such as "D63AP".
        public var model: String?
        /// `cpu_arch`, such as "arm64".
        public var cpuArchitecture: String?
        /// `CFBundleIdentifier`.
        public var bundleIdentifier: String?
        /// `CFBundleShortVersionString`.
        public var shortVersion: String?
        /// `CFBundleVersion`.
        public var bundleVersion: String?
        /// `CFBundleExecutable`.
        public var executable: String?
        /// `app_uuid`: the main executable's UUID.
        public var appUUID: UUID?

        /// "iPhone OS 4.3.3 (8J2)", in the layout of Apple's `OS Version` line.
        public var osDescription: String? {
            let name = [systemName, systemVersion].compactMap { $0 }.joined(separator: " ")
            guard !name.isEmpty else { return osBuild }
            return osBuild.map { "\(name) (\($0))" } ?? name
        }
    }

    /// `crash.error`.
    public struct Error: Sendable, Equatable {
        /// `type`: `mach`, `signal`, `nsexception`, `cpp_exception`, `user`, `deadlock`, …
        public var type: String?
        /// The faulting address.
        public var address: UInt64?
        /// `reason`, when given.
        public var reason: String?
        /// The Mach exception name, such as `EXC_BAD_ACCESS`.
        public var machException: String?
        /// The Mach code's name, such as `KERN_INVALID_ADDRESS`, else its number.
        public var machCode: String?
        /// The signal name, such as `SIGSEGV`.
        public var signal: String?
        /// The signal code's name, such as `SEGV_MAPERR`.
        public var signalCode: String?
        /// The Objective-C exception name, such as `NSInvalidArgumentException`.
        public var exceptionName: String?
        /// The Objective-C exception reason.
        public var exceptionReason: String?
        /// The C++ exception type.
        public var cppExceptionName: String?
        /// A user-reported exception's name.
        public var userReportedName: String?

        /// The most specific name: an exception name, else the Mach exception, else the signal.
        public var name: String? {
            exceptionName ?? cppExceptionName ?? userReportedName ?? machException ?? signal ?? type
        }
    }

    /// One thread.
    public struct Thread: Sendable, Equatable {
        /// `index`: the thread number.
        public var index: Int
        /// The thread's name.
        public var name: String?
        /// `dispatch_queue`.
        public var queue: String?
        /// Whether this thread crashed.
        public var crashed: Bool
        /// Frames, innermost first.
        public var frames: [Frame]
    }

    /// One frame of a backtrace.
    public struct Frame: Sendable, Equatable {
        /// `instruction_addr`: the absolute address.
        public var instructionAddress: UInt64
        /// `object_addr`: the load address of the image holding it.
        public var objectAddress: UInt64?
        /// `object_name`: that image's name.
        public var objectName: String?
        /// `symbol_addr`: where the symbol the device found starts.
        public var symbolAddress: UInt64?
        /// `symbol_name`: the symbol the device found (often redacted or wrong for app code).
        public var symbolName: String?
    }

    /// One loaded image.
    public struct Image: Sendable, Equatable {
        /// The path on the device.
        public var path: String
        /// The image's UUID, which selects the dSYM.
        public var uuid: UUID?
        /// The CPU type and subtype.
        public var architecture: MachOArchitecture?
        /// `image_addr`: where the image was loaded.
        public var loadAddress: UInt64
        /// `image_size`.
        public var size: UInt64?

        /// The file name.
        public var name: String { path.split(separator: "/").last.map(String.init) ?? path }
    }

    /// The thread that crashed.
    public var crashedThread: Thread? { threads.first { $0.crashed } }
}
