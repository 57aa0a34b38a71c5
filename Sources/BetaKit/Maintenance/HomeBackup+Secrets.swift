#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PosixIO

extension HomeBackup {
    /// Copies the files of `home`'s secrets folder (0700, files 0600) into `staging`; returns how many.
    static func copySecrets(of home: Home, into staging: String) throws -> Int {
        let source = home.path + "/secrets"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: source), !names.isEmpty else { return 0 }
        let target = staging + "/secrets"
        do { _ = try FileSystem.makeDirectory(target, permissions: 0o700) } catch {
            if !error.alreadyExists { throw FileSystemError(error, operation: "create directory") }
        }
        var copied = 0
        for name in names.sorted() where !name.hasPrefix(".") && !name.hasSuffix(".tmp") {
            guard let bytes = FileManager.default.contents(atPath: source + "/" + name) else { continue }
            let path = target + "/" + name
            let fd = try FileDescriptor.createNew(path)
            defer { try? fd.close() }
            try withFileSystemError("write") { () throws(SystemCallError) in
                try fd.writeAll([UInt8](bytes))
                try fd.sync()
            }
            copied += 1
        }
        syncDirectory(target)
        return copied
    }
}
