import PosixIO

/// Builds responses for files: validators, conditional requests, ranges, multipart and gzip.
public struct FileResponder: Sendable {
    /// Files up to this size are gzipped on the fly when compressible and accepted.
    public var gzipMaximumBytes: Int64 = 8 * 1024 * 1024
    /// Files smaller than this are not compressed.
    public var gzipMinimumBytes: Int64 = 1024
    /// Most ranges honoured before sending the whole file.
    public var maxRanges: Int = 16

    /// Creates a responder with default settings.
    public init() {}

    /// Answers `request` (GET or HEAD) with the file at `path`.
    public func respond(to request: Request, path: String, contentType: String? = nil) throws -> Response {
        let file = try OpenFile(path: path)
        let info: FileMetadata
        do { info = try FileDescriptor(rawValue: file.descriptor, path: path).status() } catch {
            throw HTTPError(.internalServerError, "cannot stat \(path): errno \(error.errno)")
        }
        guard info.kind == .regularFile else { throw HTTPError(.notFound, "not a file") }
        let size = info.size
        let type = contentType ?? MediaType.forPath(path)
        let compressible = MediaType.isCompressible(type)
        let useGzip = compressible && request.headers["Range"] == nil && size >= gzipMinimumBytes
            && size <= gzipMaximumBytes && Gzip.isAccepted(by: request.headers)
        let baseTag = "\(String(size, radix: 16))-\(String(info.modified * 1_000_000_000 + info.modifiedNanoseconds, radix: 16))-\(String(info.inode, radix: 16))"
        let validators = Validators(etag: "\"\(baseTag)\(useGzip ? "-gz" : "")\"", modified: Int(info.modified))

        var headers: HTTPHeaders = ["Content-Type": type, "ETag": validators.etag,
                                    "Last-Modified": HTTPDate.format(validators.modified), "Accept-Ranges": "bytes"]
        if compressible { headers.add("Vary", "Accept-Encoding") }

        switch validators.evaluatePreconditions(request) {
        case .proceed: break
        case .notModified:
            var notModified = headers
            notModified.remove("Content-Type")
            notModified.remove("Accept-Ranges")
            return Response(status: .notModified, headers: notModified)
        case .failed:
            return Response(status: .preconditionFailed, headers: ["ETag": validators.etag])
        }

        if useGzip {
            let mapped = try readAll(file, size: size)
            if let compressed = mapped.withUnsafeBytes({ Gzip.compress($0) }) {
                headers.add("Content-Encoding", "gzip")
                return Response(status: .ok, headers: headers, body: .bytes(compressed))
            }
            headers.set("ETag", "\"\(baseTag)\"")
            return Response(status: .ok, headers: headers, body: .bytes(mapped))
        }

        if request.method == .get, let rangeHeader = request.headers["Range"], validators.ifRangeAllows(request) {
            switch ByteRanges.evaluate(rangeHeader, length: size, maxRanges: maxRanges) {
            case .whole:
                break
            case .unsatisfiable:
                return Response(status: .rangeNotSatisfiable,
                                headers: ["Content-Range": "bytes */\(size)", "ETag": validators.etag,
                                          "Content-Type": "text/plain; charset=utf-8"],
                                body: .bytes(Array("416 Range Not Satisfiable: the file has \(size) bytes\n".utf8)))
            case .ranges(let ranges) where ranges.count == 1:
                let range = ranges[0]
                headers.add("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound)/\(size)")
                return Response(status: .partialContent, headers: headers, body: .file(FileBody(parts: [
                    .region(file, offset: range.lowerBound, length: range.upperBound - range.lowerBound + 1),
                ])))
            case .ranges(let ranges):
                return multipart(file: file, ranges: ranges, size: size, type: type, headers: headers)
            }
        }
        return Response(status: .ok, headers: headers,
                        body: .file(FileBody(parts: [.region(file, offset: 0, length: size)])))
    }

    private func multipart(file: OpenFile, ranges: [ClosedRange<Int64>], size: Int64, type: String,
                           headers: HTTPHeaders) -> Response {
        let boundary = "byteranges-" + String(UInt64.random(in: .min ... .max), radix: 36)
        var parts: [FileBody.Part] = []
        for range in ranges {
            let partHead = "\r\n--\(boundary)\r\nContent-Type: \(type)\r\n"
                + "Content-Range: bytes \(range.lowerBound)-\(range.upperBound)/\(size)\r\n\r\n"
            parts.append(.bytes(Array(partHead.utf8)))
            parts.append(.region(file, offset: range.lowerBound, length: range.upperBound - range.lowerBound + 1))
        }
        parts.append(.bytes(Array("\r\n--\(boundary)--\r\n".utf8)))
        var headers = headers
        headers.set("Content-Type", "multipart/byteranges; boundary=\(boundary)")
        return Response(status: .partialContent, headers: headers, body: .file(FileBody(parts: parts)))
    }

    private func readAll(_ file: OpenFile, size: Int64) throws -> [UInt8] {
        let bytes: [UInt8]
        do { bytes = try FileDescriptor(rawValue: file.descriptor, path: file.path).read(count: Int(size), at: 0) } catch {
            throw HTTPError(.internalServerError, "cannot read \(file.path): errno \(error.errno)")
        }
        guard bytes.count == Int(size) else { throw HTTPError(.internalServerError, "cannot read \(file.path): errno 0") }
        return bytes
    }
}
