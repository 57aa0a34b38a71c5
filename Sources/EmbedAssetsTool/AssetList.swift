#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads a target's `EmbedAssets.txt` and finds the files it names: one path per line, relative
/// to the package root, a folder (walked recursively, hidden names skipped) or a single file;
/// blank lines and `#` comments are ignored.
struct AssetList {
    /// A problem with the list, naming its line and the fix.
    struct Problem: Error, CustomStringConvertible {
        /// One sentence.
        var description: String
    }

    /// How deep folders may nest (a guard against symbolic-link loops).
    static let maximumDepth = 32

    /// The list file's path, for messages.
    var listPath: String
    /// The package root the entries are relative to.
    var root: String

    /// What a list names, relative to the root, each once, sorted by their UTF-8 bytes.
    struct Contents {
        /// The files to embed.
        var files: [String] = []
        /// The folders walked to find them (listed folders and their non-hidden subfolders).
        var folders: [String] = []
    }

    /// The files (and folders) the list names.
    func contents(of text: String) throws(Problem) -> Contents {
        var files: Set<String> = [], folders: Set<String> = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
            guard let first = line.first, first != "#" else { continue }
            let place = "\(listPath) line \(index + 1)"
            let entry = try normalized(String(line), at: place)
            try walk(entry, at: place, depth: 0, file: { files.insert($0) }, folder: { folders.insert($0) })
        }
        let order: (String, String) -> Bool = { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return Contents(files: files.sorted(by: order), folders: folders.sorted(by: order))
    }

    /// An entry as a clean relative path; absolute paths and `..` are refused so that every key
    /// names a file inside the package.
    func normalized(_ entry: String, at place: String) throws(Problem) -> String {
        let parts = entry.split(separator: "/").filter { $0 != "." }
        guard !entry.hasPrefix("/"), !parts.contains(".."), !parts.isEmpty else {
            throw Problem(description: "\(place): \(entry) is not a path inside the package; write it relative to \(root), without ..")
        }
        return parts.joined(separator: "/")
    }

    /// Calls `file` with `path` when it is a file; when it is a folder, calls `folder` with it and
    /// walks its non-hidden entries.
    func walk(_ path: String, at place: String, depth: Int, file: (String) -> Void, folder: (String) -> Void) throws(Problem) {
        guard let isFolder = Self.isDirectory(root + "/" + path) else {
            throw Problem(description: "\(place): \(path) does not exist in \(root); create it or remove the line")
        }
        guard isFolder else {
            file(path)
            return
        }
        folder(path)
        guard depth < Self.maximumDepth else {
            throw Problem(description: "\(place): \(path) nests folders more than \(Self.maximumDepth) deep; look for a symbolic link that loops")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: root + "/" + path)
        } catch {
            throw Problem(description: "\(place): the folder \(path) cannot be read (\(error)); check its permissions")
        }
        for name in names.sorted() where !name.hasPrefix(".") {
            try walk(path + "/" + name, at: place, depth: depth + 1, file: file, folder: folder)
        }
    }

    /// Whether `path` is a folder (following symbolic links); nil when nothing is there.
    static func isDirectory(_ path: String) -> Bool? {
        #if canImport(FoundationEssentials)
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        return isFolder
        #else
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        return isFolder.boolValue
        #endif
    }
}
