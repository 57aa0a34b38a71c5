#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PosixIO

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
        directory = try withFileSystemError("create directory") { () throws(SystemCallError) in
            try FileSystem.makeTemporaryDirectory(template: base + "/betactl-symbols-XXXXXX")
        }
    }

    /// Creates `path` (and its parents, private to the user) and proves it writable with a probe file.
    static func prepare(_ path: String) throws(FileSystemError) {
        var partial = ""
        for component in path.split(separator: "/") {
            partial += "/" + component
            do { _ = try FileSystem.makeDirectory(partial, permissions: 0o700) } catch {
                if !error.alreadyExists { throw FileSystemError(error, operation: "create directory") }
            }
        }
        guard FileKind(path: path) == .directory else { throw FileSystemError(operation: "create directory", path: path, errno: Errno.notADirectory) }
        let probe = path + "/.betactl-write-probe-\(CurrentProcess.id)"
        do {
            let fd = try FileDescriptor.open(probe, .writeOnly, options: [.create, .exclusiveCreate], permissions: 0o600)
            try? fd.close()
        } catch { throw FileSystemError(operation: "write in", path: path, errno: error.errno) }
        _ = try? FileSystem.removeFile(probe)
    }

    /// Removes the folder if it is a temporary one; a kept cache stays for the next run.
    public func removeIfTemporary() {
        if isTemporary { try? FileManager.default.removeItem(atPath: directory) }
    }
}
