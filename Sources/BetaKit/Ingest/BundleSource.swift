import AppleFormats

/// Reports how far a long step has come: a phase name, bytes done and bytes in total.
public typealias IngestProgressHandler = @Sendable (_ phase: String, _ done: UInt64, _ total: UInt64) -> Void

/// Uniform access to the files of an input, whether it is a zip or a directory.
protocol BundleSource: Sendable {
    /// Every regular file, path relative to the input root with `/` separators, and its size.
    var files: [String: UInt64] { get }
    /// Reads a whole (small) file, refusing files larger than `maxSize`.
    func contents(of path: String, maxSize: Int) throws -> [UInt8]
    /// Makes a file available as a mapped file on disk (zip entries are extracted to the work directory).
    func materialize(_ path: String) throws -> (file: MappedFile, extractedPath: String?)
    /// Checks the integrity of every file not already read (CRC for zips).
    func verifyRemaining(progress: IngestProgressHandler?) throws
}

extension BundleSource {
    /// Regular files directly or indirectly under `directory` (no trailing slash).
    func files(under directory: String) -> [String] {
        let prefix = directory.isEmpty ? "" : directory + "/"
        return files.keys.filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// The names of the immediate subdirectories of `directory` that end with `suffix`.
    func subdirectories(of directory: String, suffix: String) -> [String] {
        let prefix = directory.isEmpty ? "" : directory + "/"
        var names = Set<String>()
        for path in files.keys where path.hasPrefix(prefix) {
            let rest = path.dropFirst(prefix.count)
            guard let slash = rest.firstIndex(of: "/") else { continue }
            let name = String(rest[..<slash])
            if name.hasSuffix(suffix) { names.insert(name) }
        }
        return names.sorted()
    }
}
