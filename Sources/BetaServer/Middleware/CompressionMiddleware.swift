/// Gzips in-memory bodies of compressible types when the client accepts gzip.
///
/// File bodies are handled by `FileResponder` (which must vary the ETag) and
/// streamed bodies pass through unchanged.
public struct CompressionMiddleware: Middleware {
    /// Bodies smaller than this are not worth the header overhead.
    public var minimumBytes: Int

    /// Creates the middleware.
    public init(minimumBytes: Int = 1024) { self.minimumBytes = minimumBytes }

    /// Calls `next`, then compresses if worthwhile.
    public func respond(to request: Request, context: Context, next: Handler) async throws -> Response {
        var response = try await next(request, context)
        guard response.allowsCompression, case .bytes(let bytes) = response.body, bytes.count >= minimumBytes,
              !response.headers.contains("Content-Encoding"), !response.headers.contains("Content-Range"),
              let type = response.headers["Content-Type"], MediaType.isCompressible(type) else { return response }
        response.headers.add("Vary", "Accept-Encoding")
        guard Gzip.isAccepted(by: request.headers),
              let compressed = bytes.withUnsafeBytes({ Gzip.compress($0) }), compressed.count < bytes.count else {
            return response
        }
        response.headers.set("Content-Encoding", "gzip")
        if let etag = response.headers["ETag"], etag.hasSuffix("\"") {
            response.headers.set("ETag", String(etag.dropLast()) + "-gz\"")
        }
        response.body = .bytes(compressed)
        return response
    }
}
