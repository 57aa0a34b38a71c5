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

extension HomeBackup {
    /// Copies the files of `home`'s secrets folder (0700, files 0600) into `staging`; returns how many.
    static func copySecrets(of home: Home, into staging: String) throws -> Int {
        let source = home.path + "/secrets"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: source), !names.isEmpty else { return 0 }
        let target = staging + "/secrets"
        guard mkdir(target, 0o700) == 0 || errno == EEXIST else { throw FileSystemError(operation: "create directory", path: target, errno: errno) }
        var copied = 0
        for name in names.sorted() where !name.hasPrefix(".") && !name.hasSuffix(".tmp") {
            guard let bytes = FileManager.default.contents(atPath: source + "/" + name) else { continue }
            let path = target + "/" + name
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw FileSystemError(operation: "create", path: path, errno: errno) }
            defer { close(fd) }
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written == bytes.count, fsync(fd) == 0 else { throw FileSystemError(operation: "write", path: path, errno: errno) }
            copied += 1
        }
        syncDirectory(target)
        return copied
    }
}
