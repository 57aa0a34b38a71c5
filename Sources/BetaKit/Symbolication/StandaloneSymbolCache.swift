#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where `symbolicate` keeps symbol indexes when there is no betactl home, as `atos` and
/// symbolicatecrash work without one: `$XDG_CACHE_HOME/betactl/symbols` (an absolute
/// XDG_CACHE_HOME only, as the XDG spec says), else `~/.cache/betactl/symbols`. When that cannot
/// be created or written (no HOME, a read-only HOME), a fresh private temporary folder is used
/// for this run and removed afterwards.
public struct StandaloneSymbolCache: Sendable {
    /// The folder the index cache uses.
    public let directory: String
    /// Why the preferred folder was not used, when the cache fell back to a temporary one.
    public let fallbackReason: String?

    /// Whether this is a temporary folder for this run only.
    public var isTemporary: Bool { fallbackReason != nil }

    /// The preferred folder for `environment`, or nil when neither XDG_CACHE_HOME nor HOME says.
    public static func preferredDirectory(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg.withoutTrailingSlashes + "/betactl/symbols" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home.withoutTrailingSlashes + "/.cache/betactl/symbols" }
        return nil
    }

    /// Picks the folder: the preferred one if it can be created and written, else a new
    /// temporary one (under TMPDIR, else /tmp).
    public init(environment: [String: String]) throws(FileSystemError) {
        if let preferred = Self.preferredDirectory(environment: environment) {
            do {
                try Self.prepare(preferred)
                directory = preferred
                fallbackReason = nil
                return
            } catch {
                fallbackReason = "\(error)"
            }
        } else {
            fallbackReason = "neither XDG_CACHE_HOME nor HOME names an absolute folder"
        }
        let base = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0.withoutTrailingSlashes : nil } ?? "/tmp"
        var template = Array((base + "/betactl-symbols-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard made != nil else { throw FileSystemError(operation: "create directory", path: base + "/betactl-symbols-XXXXXX", errno: errno) }
        directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Creates `path` (and its parents, private to the user) and proves it writable with a probe file.
    static func prepare(_ path: String) throws(FileSystemError) {
        var partial = ""
        for component in path.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o700) != 0 && errno != EEXIST {
                throw FileSystemError(operation: "create directory", path: partial, errno: errno)
            }
        }
        guard FileKind(path: path) == .directory else { throw FileSystemError(operation: "create directory", path: path, errno: ENOTDIR) }
        let probe = path + "/.betactl-write-probe-\(getpid())"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileSystemError(operation: "write in", path: path, errno: errno) }
        close(fd)
        unlink(probe)
    }

    /// Removes the folder if it is a temporary one; a kept cache stays for the next run.
    public func removeIfTemporary() {
        if isTemporary { try? FileManager.default.removeItem(atPath: directory) }
    }
}
