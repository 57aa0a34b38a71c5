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
            if mkdir(folder, 0o700) != 0, errno != EEXIST { return }
            let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return }
            defer { close(fd) }
            let bytes = Array((stamped + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }
    }
}
