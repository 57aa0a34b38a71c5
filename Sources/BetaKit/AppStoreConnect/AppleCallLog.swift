#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PosixIO

/// The log of every App Store Connect call: `<home>/logs/app-store-connect.log`, one line per call
/// with the time, method, path, status and Apple's request id. Never the key or a token.
public enum AppleCallLog {
    /// The log file of `home`.
    public static func path(home: Home) -> String { home.path + "/logs/app-store-connect.log" }

    /// A sink appending lines to `home`'s log (and handing each to `also`, when given).
    public static func sink(home: Home, also: (@Sendable (String) -> Void)? = nil) -> @Sendable (String) -> Void {
        let folder = home.path + "/logs"
        let path = path(home: home)
        return { line in
            let stamped = Timestamp.string(Date()) + " " + line
            also?(stamped)
            do { _ = try FileSystem.makeDirectory(folder, permissions: 0o700) } catch { if (error as? SystemCallError)?.alreadyExists != true { return } }
            guard let fd = try? FileDescriptor.open(path, .writeOnly, options: [.create, .append], permissions: 0o600) else { return }
            defer { try? fd.close() }
            try? fd.writeAll(Array((stamped + "\n").utf8))
        }
    }
}
