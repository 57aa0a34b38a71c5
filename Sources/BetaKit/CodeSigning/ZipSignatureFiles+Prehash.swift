import AppleFormats
import Dispatch
import Synchronization

extension ZipSignatureFiles {
    /// Hashing resources is most of a bundle's verification; it runs on this many threads.
    static let hashingThreads = 2

    /// A copy that knows the SHA-256 of every regular file under `root` (beyond those already
    /// known), computed on `hashingThreads` threads as each entry inflates (CRC-checked, and told to
    /// `onRead`), so the seal check reads no resource itself. An entry that fails to inflate is left
    /// unknown: the check then reads it and reports it.
    func prehashed(under root: String) -> ZipSignatureFiles {
        let prefix = root + "/"
        let paths = entries.compactMap { path, entry -> String? in
            guard case .file = entry, path.hasPrefix(prefix), knownSHA256[path] == nil else { return nil }
            return path
        }.sorted()
        guard !paths.isEmpty else { return self }
        let results = Mutex<[String: [UInt8]]>([:])
        let next = Atomic<Int>(0)
        let files = self
        DispatchQueue.concurrentPerform(iterations: Self.hashingThreads) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < paths.count else { return }
                var hasher = SHA256()
                guard (try? files.withChunks(of: paths[index]) { hasher.update($0) }) != nil else { continue }
                let digest = hasher.finalize().bytes
                results.withLock { $0[paths[index]] = digest }
            }
        }
        var copy = self
        copy.knownSHA256.merge(results.withLock { $0 }) { known, _ in known }
        return copy
    }
}
