/// Content types by file extension, and which of them are worth compressing.
public enum MediaType {
    private static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8", "json": "application/json",
        "txt": "text/plain; charset=utf-8", "log": "text/plain; charset=utf-8", "md": "text/markdown; charset=utf-8",
        "csv": "text/csv; charset=utf-8", "xml": "application/xml", "plist": "application/xml",
        "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "gif": "image/gif", "webp": "image/webp", "ico": "image/x-icon", "pdf": "application/pdf",
        "wasm": "application/wasm", "woff": "font/woff", "woff2": "font/woff2", "map": "application/json",
        "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar",
        "mp4": "video/mp4",
    ]

    /// The content type for `path`'s extension, `application/octet-stream` when unknown.
    public static func forPath(_ path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "application/octet-stream" }
        return byExtension[path[path.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    /// Whether responses of `contentType` usually shrink with gzip (text, JSON, XML, JavaScript, SVG).
    public static func isCompressible(_ contentType: String) -> Bool {
        let type = contentType.split(separator: ";").first.map { $0.trimmingOWS().lowercased() } ?? ""
        return type.hasPrefix("text/") || type == "application/json" || type == "application/xml"
            || type == "image/svg+xml" || type == "application/javascript" || type.hasSuffix("+json")
            || type.hasSuffix("+xml")
    }
}
