#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit

/// The page templates and static files the server uses: the ones embedded in the binary at build
/// time (from the repository's `Templates/` and `web/`), overlaid file by file by the directories
/// given with `serve --templates DIR --web DIR`. Branding a page means dropping a changed copy of
/// one file into such a directory; everything not overridden keeps working.
public struct WebAssets: Sendable {
    /// A template's source and where it came from (for error messages).
    public struct TemplateSource: Sendable, Equatable {
        /// The template's UTF-8 source.
        public var bytes: [UInt8]
        /// `Templates/tester.html` for an embedded file, or the override's path on disk.
        public var origin: String
    }

    /// Templates by name: the file name without its extension (`tester.html` → `tester`).
    public var templates: [String: TemplateSource]
    /// Static files by their path below `web/`, e.g. `app.css`.
    public var files: [String: StaticAsset]

    /// The embedded files, overlaid by `templatesDirectory` and `webDirectory` when given.
    public static func load(templatesDirectory: String? = nil, webDirectory: String? = nil) throws -> WebAssets {
        var assets = WebAssets(templates: [:], files: [:])
        for (path, bytes) in EmbeddedAssets.files {
            if path.hasPrefix("Templates/") {
                assets.addTemplate(relativePath: String(path.dropFirst("Templates/".count)), bytes: bytes, origin: path)
            } else if path.hasPrefix("web/") {
                let relative = String(path.dropFirst("web/".count))
                assets.files[relative] = StaticAsset(path: relative, bytes: bytes)
            }
        }
        if let directory = templatesDirectory {
            for (relative, bytes) in try Self.readTree(directory, option: "--templates") {
                assets.addTemplate(relativePath: relative, bytes: bytes, origin: directory + "/" + relative)
            }
        }
        if let directory = webDirectory {
            for (relative, bytes) in try Self.readTree(directory, option: "--web") {
                assets.files[relative] = StaticAsset(path: relative, bytes: bytes)
            }
        }
        return assets
    }

    private mutating func addTemplate(relativePath: String, bytes: [UInt8], origin: String) {
        guard let dot = relativePath.lastIndex(of: "."), !relativePath.contains("/") else { return }
        let ext = relativePath[relativePath.index(after: dot)...]
        guard ext == "html" || ext == "mobileconfig" || ext == "txt" else { return }
        templates[String(relativePath[..<dot])] = TemplateSource(bytes: bytes, origin: origin)
    }

    /// Every regular, non-hidden file below `directory` (two levels deep at most), by relative path.
    static func readTree(_ directory: String, option: String) throws -> [(String, [UInt8])] {
        guard FileKind(path: directory) == .directory else { throw WebAssetsError.notADirectory(directory, option: option) }
        let root = resolvedPath(directory) ?? directory
        var result: [(String, [UInt8])] = []
        func visit(_ relative: String, depth: Int) throws {
            let folder = relative.isEmpty ? directory : directory + "/" + relative
            for name in try directoryEntries(folder).sorted() where !name.hasPrefix(".") {
                let child = relative.isEmpty ? name : relative + "/" + name
                let path = directory + "/" + child
                // A link may point anywhere: one that leaves the directory would serve that file.
                if isSymbolicLink(path), let target = resolvedPath(path), target != root, !target.hasPrefix(root.hasSuffix("/") ? root : root + "/") {
                    throw WebAssetsError.linkOutside(path, target: target, option: option, directory: directory)
                }
                switch FileKind(path: path) {
                case .directory where depth < 2: try visit(child, depth: depth + 1)
                case .regularFile:
                    let file = try MappedFile(path: path)
                    guard file.count <= 8 << 20 else { throw WebAssetsError.tooLarge(path, bytes: file.count) }
                    result.append((child, file.withBytes { Array($0) }))
                default: continue
                }
            }
        }
        try visit("", depth: 0)
        return result
    }
}

/// A static file served under `/assets/`.
public struct StaticAsset: Sendable, Equatable {
    /// The path below `web/`.
    public var path: String
    /// The content.
    public var bytes: [UInt8]
    /// The media type, from the extension.
    public var contentType: String
    /// A strong ETag from the content's SHA-256.
    public var etag: String
    /// The first 10 hex digits of the SHA-256, used as a cache-busting query in links.
    public var version: String

    /// Describes `bytes` served as `path`.
    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
        let hex = SHA256.hash(bytes).hex
        self.etag = "\"\(hex.prefix(32))\""
        self.version = String(hex.prefix(10))
        self.contentType = Self.mediaType(path)
    }

    static func mediaType(_ path: String) -> String {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "png": return "image/png"
        case "svg": return "image/svg+xml"
        case "ico": return "image/x-icon"
        case "html": return "text/html; charset=utf-8"
        case "txt": return "text/plain; charset=utf-8"
        case "woff2": return "font/woff2"
        default: return "application/octet-stream"
        }
    }
}

/// Why the templates or static files could not be loaded.
public enum WebAssetsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An override directory does not exist or is a file.
    case notADirectory(String, option: String)
    /// A file is larger than a page asset should be.
    case tooLarge(String, bytes: Int)
    /// A template every page needs is missing.
    case missingTemplate(String)
    /// A symbolic link in an override directory points outside it.
    case linkOutside(String, target: String, option: String, directory: String)

    /// A sentence naming the path and the fix.
    public var description: String {
        switch self {
        case let .notADirectory(path, option):
            "\(option) \(path) is not a directory; give the folder holding your overriding files"
        case let .tooLarge(path, bytes):
            "\(path) is \(bytes) bytes, more than the 8 MiB a page asset may be; shrink or remove it"
        case let .linkOutside(path, target, option, directory):
            "\(path) is a symbolic link to \(target), outside the \(option) directory \(directory); copy the file into \(directory) instead of linking to it, or remove the link"
        case let .missingTemplate(name):
            "the template \(name).html is missing; restore it in the --templates directory or remove the override"
        }
    }
}
