import Foundation
import Testing
@testable import BetaServer
import TestSupport

@Suite struct FileResponderTests {
    let directory: String
    let path: String
    let content: [UInt8] = (0..<5000).map { UInt8($0 % 251) }

    init() throws {
        directory = NSTemporaryDirectory() + "file-responder-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = directory + "/data.bin"
        try Data(content).write(to: URL(fileURLWithPath: path))
    }

    func request(_ headers: HTTPHeaders = [:], method: HTTPMethod = .get) -> Request {
        Request(method: method, target: "/data.bin", headers: headers)
    }

    func bodyBytes(_ response: Response) throws -> [UInt8] {
        switch response.body {
        case .bytes(let bytes): return bytes
        case .empty: return []
        case .stream: throw HTTPError(.internalServerError, "stream")
        case .file(let body):
            var result: [UInt8] = []
            for part in body.parts {
                switch part {
                case .bytes(let bytes): result += bytes
                case .region(let file, let offset, let length):
                    var chunk = [UInt8](repeating: 0, count: Int(length))
                    let got = chunk.withUnsafeMutableBytes { pread(file.descriptor, $0.baseAddress!, Int(length), off_t(offset)) }
                    #expect(got == Int(length))
                    result += chunk
                }
            }
            return result
        }
    }

    @Test func wholeFileCarriesValidatorsAndAcceptRanges() throws {
        let response = try FileResponder().respond(to: request(), path: path)
        #expect(response.status == .ok)
        #expect(try bodyBytes(response) == content)
        let etag = try #require(response.headers["ETag"])
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
        #expect(response.headers["Last-Modified"].flatMap(HTTPDate.parse) != nil)
        #expect(response.headers["Accept-Ranges"] == "bytes")
        #expect(response.headers["Content-Type"] == "application/octet-stream")
    }

    @Test func singleRangeGives206WithContentRange() throws {
        let response = try FileResponder().respond(to: request(["Range": "bytes=100-199"]), path: path)
        #expect(response.status == .partialContent)
        #expect(response.headers["Content-Range"] == "bytes 100-199/5000")
        #expect(try bodyBytes(response) == Array(content[100...199]))
    }

    @Test func suffixRangeGivesTheTail() throws {
        let response = try FileResponder().respond(to: request(["Range": "bytes=-10"]), path: path)
        #expect(response.headers["Content-Range"] == "bytes 4990-4999/5000")
        #expect(try bodyBytes(response) == Array(content[4990...]))
    }

    @Test func multipleRangesGiveMultipartByteranges() throws {
        let response = try FileResponder().respond(to: request(["Range": "bytes=0-9,4000-4009"]), path: path)
        #expect(response.status == .partialContent)
        let type = try #require(response.headers["Content-Type"])
        #expect(type.hasPrefix("multipart/byteranges; boundary="))
        let boundary = String(type.split(separator: "=")[1])
        let text = String(decoding: try bodyBytes(response), as: UTF8.self)
        #expect(text.contains("--\(boundary)\r\nContent-Type: application/octet-stream\r\nContent-Range: bytes 0-9/5000\r\n\r\n"))
        #expect(text.contains("Content-Range: bytes 4000-4009/5000"))
        #expect(text.hasSuffix("\r\n--\(boundary)--\r\n"))
        #expect(response.body.knownLength == Int64(try bodyBytes(response).count))
    }

    @Test func unsatisfiableRangeGives416WithTheLength() throws {
        let response = try FileResponder().respond(to: request(["Range": "bytes=9000-"]), path: path)
        #expect(response.status == .rangeNotSatisfiable)
        #expect(response.headers["Content-Range"] == "bytes */5000")
    }

    @Test func matchingIfNoneMatchGives304() throws {
        let etag = try #require(try FileResponder().respond(to: request(), path: path).headers["ETag"])
        let response = try FileResponder().respond(to: request(["If-None-Match": "\"other\", \(etag)"]), path: path)
        #expect(response.status == .notModified)
        #expect(response.headers["ETag"] == etag)
        #expect(try FileResponder().respond(to: request(["If-None-Match": "W/\(etag)"]), path: path).status == .notModified)
        #expect(try FileResponder().respond(to: request(["If-None-Match": "\"other\""]), path: path).status == .ok)
    }

    @Test func ifModifiedSinceGives304OnlyWhenNotNewer() throws {
        let first = try FileResponder().respond(to: request(), path: path)
        let modified = try #require(first.headers["Last-Modified"])
        #expect(try FileResponder().respond(to: request(["If-Modified-Since": modified]), path: path).status == .notModified)
        let earlier = HTTPDate.format(try #require(HTTPDate.parse(modified)) - 3600)
        #expect(try FileResponder().respond(to: request(["If-Modified-Since": earlier]), path: path).status == .ok)
        // If-None-Match takes precedence over If-Modified-Since.
        #expect(try FileResponder().respond(to: request(["If-Modified-Since": modified, "If-None-Match": "\"x\""]),
                                            path: path).status == .ok)
    }

    @Test func failedIfMatchGives412() throws {
        #expect(try FileResponder().respond(to: request(["If-Match": "\"nope\""]), path: path).status == .preconditionFailed)
        #expect(try FileResponder().respond(to: request(["If-Match": "*"]), path: path).status == .ok)
    }

    @Test func ifRangeWithCurrentETagOrDateHonoursTheRange() throws {
        let first = try FileResponder().respond(to: request(), path: path)
        let etag = try #require(first.headers["ETag"])
        let modified = try #require(first.headers["Last-Modified"])
        #expect(try FileResponder().respond(to: request(["Range": "bytes=0-0", "If-Range": etag]), path: path).status == .partialContent)
        #expect(try FileResponder().respond(to: request(["Range": "bytes=0-0", "If-Range": modified]), path: path).status == .partialContent)
    }

    @Test func ifRangeWithStaleValidatorSendsTheWholeFile() throws {
        #expect(try FileResponder().respond(to: request(["Range": "bytes=0-0", "If-Range": "\"stale\""]), path: path).status == .ok)
        #expect(try FileResponder().respond(to: request(["Range": "bytes=0-0", "If-Range": "Thu, 01 Jan 1970 00:00:00 GMT"]),
                                            path: path).status == .ok)
    }

    @Test func compressibleFilesAreGzippedWhenAcceptedWithADistinctETag() throws {
        let textPath = directory + "/page.html"
        try String(repeating: "<p>hello</p>\n", count: 500).write(toFile: textPath, atomically: true, encoding: .utf8)
        let plain = try FileResponder().respond(to: request(), path: textPath)
        let gzipped = try FileResponder().respond(to: request(["Accept-Encoding": "br, gzip;q=0.8"]), path: textPath)
        #expect(plain.headers["Content-Encoding"] == nil)
        #expect(gzipped.headers["Content-Encoding"] == "gzip")
        #expect(gzipped.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(gzipped.headers["Vary"] == "Accept-Encoding")
        #expect(gzipped.headers["ETag"] != plain.headers["ETag"])
        #expect(try bodyBytes(gzipped).count < 1000)
        #expect(try bodyBytes(gzipped).prefix(2) == [0x1F, 0x8B])
        let refused = try FileResponder().respond(to: request(["Accept-Encoding": "gzip;q=0"]), path: textPath)
        #expect(refused.headers["Content-Encoding"] == nil)
        // Binary types are never compressed.
        #expect(try FileResponder().respond(to: request(["Accept-Encoding": "gzip"]), path: path).headers["Content-Encoding"] == nil)
    }

    @Test func missingFilesAndDirectoriesAre404() {
        #expect(throws: HTTPError.self) { try FileResponder().respond(to: request(), path: directory + "/none") }
        #expect(throws: HTTPError.self) { try FileResponder().respond(to: request(), path: directory) }
    }

    @Test func staticFilesRefuseTraversalAndHiddenFiles() throws {
        let files = StaticFiles(root: directory)
        for bad in ["../etc/passwd", "a/../../x", ".hidden", "", "a//b"] {
            var request = request()
            request.parameters = ["path": bad]
            #expect(throws: HTTPError.self) { try files.respond(to: request) }
        }
        var good = request()
        good.parameters = ["path": "data.bin"]
        #expect(try files.respond(to: good).status == .ok)
    }

    @Test func contentTypeComesFromTheExtension() {
        #expect(MediaType.forPath("/a/b.HTML") == "text/html; charset=utf-8")
        #expect(MediaType.forPath("/a/manifest.plist") == "application/xml")
        #expect(MediaType.forPath("/a/app.ipa") == "application/octet-stream")
        #expect(MediaType.forPath("/a.dir/noext") == "application/octet-stream")
        #expect(MediaType.isCompressible("application/json"))
        #expect(!MediaType.isCompressible("image/png"))
    }

    @Test func httpDatesRoundTrip() {
        #expect(HTTPDate.format(784111777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784111777)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
    }
}
