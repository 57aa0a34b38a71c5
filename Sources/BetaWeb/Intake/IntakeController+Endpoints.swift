#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer
import Multipart
import BetaJSON

/// A refused upload: the status, one sentence for the sender, and how long to wait for a 429.
struct IntakeRefusal: Error, Sendable {
    var status: HTTPStatus
    var message: String
    var retryAfter: Int?

    static let tooManyRequests = HTTPStatus(code: 429)
    static let unsupportedMediaType = HTTPStatus(code: 415)
    static let unprocessable = HTTPStatus(code: 422)
}

extension IntakeController {
    /// The SDK endpoints, authenticated by ingest keys only: HockeySDK's two, KSCrash's standard
    /// sink and the raw one. (The rest of `/api/v1` is the admin API's, with its own auth.)
    ///
    /// They run on the event loop, which only streams the body to the spool: the key lookup,
    /// multipart parsing, recognising formats, splitting KSCrash arrays and parsing HockeySDK XML
    /// all run on the blocking pool (`EventLoopBudgetTests` checks the loop's share stays small).
    func addRoutes(to router: inout Router) {
        let multipart = RouteOptions(bodyLimit: limits.maxReportBytes * 2 + (1 << 20), execution: .eventLoop)
        let raw = RouteOptions(bodyLimit: limits.maxReportBytes, execution: .eventLoop)
        // Each route reads the app's ingest key that `IngestKeyAuth` looked up.
        let sdkKey = IngestKeyAuth(store: crashes.store, pool: pool, problems: false)
        router.group("", middleware: [sdkKey]) { sdk in
            sdk.post("/api/2/apps/:key/crashes", options: multipart) { request, context in await hockeyAppCrash(request, context, form: .xml) }
            sdk.post("/api/2/apps/:key/crashes/upload", options: multipart) { request, context in await hockeyAppCrash(request, context, form: .fields) }
            sdk.post("/api/kscrash/:key", options: RouteOptions(bodyLimit: limits.maxReportBytes * 4 + (1 << 20), execution: .eventLoop)) { request, context in
                await kscrashReports(request, context)
            }
        }
        // Described with the API's operations (`crashOperations`); its errors are problem+json like theirs.
        router.group("", middleware: [IngestKeyAuth(store: crashes.store, pool: pool, problems: true)]) { api in
            api.post("/api/v1/crashes", options: raw) { request, context in await rawCrash(request, context) }
        }
    }

    // MARK: SDKs

    /// HockeySDK's two forms: `xml` (a `<crashes>` document) or separate fields.
    enum HockeyForm { case xml, fields }

    /// `POST /api/2/apps/<key>/crashes[/upload]`: answered 201 with a short body (HockeySDK counts an
    /// empty body as a failure and sends the report again).
    func hockeyAppCrash(_ request: Request, _ context: Context, form: HockeyForm) async -> Response {
        let read = multipartReader(request, stripsHockeyCRLF: true,
                                   fields: ["xml": limits.maxReportBytes * 2, "log": limits.maxReportBytes],
                                   maxParts: 16)
        return await answer(request, context, success: .created, body: { _ in Array("Crash report received.\n".utf8) }) { key in
            let parts = try read()
            func part(_ name: String) -> FormPart? { parts.first { $0.name == name } }
            func text(_ name: String) -> String? { part(name)?.text }
            var submissions: [CrashSubmission] = []
            switch form {
            case .xml:
                guard let xml = part("xml") else { throw IntakeRefusal(status: .badRequest, message: "the upload has no xml part; HockeySDK sends the crash as a part named xml") }
                let upload: HockeyAppCrashUpload
                do { upload = try HockeyAppCrashUpload(bytes: xml.bytes) } catch let error as HockeyAppCrashUploadError {
                    throw IntakeRefusal(status: IntakeRefusal.unprocessable, message: error.description)
                }
                for crash in upload.crashes {
                    submissions.append(CrashSubmission(bytes: Array(crash.log.utf8), source: .hockeyApp, fileName: crash.crashID.map { "\($0).crash" },
                                                       keyID: key.id, userID: crash.userID, contact: crash.contact, description: crash.userDescription))
                }
            case .fields:
                guard let log = part("log") else { throw IntakeRefusal(status: .badRequest, message: "the upload has no log part; HockeySDK sends the crash log as a part named log") }
                submissions.append(CrashSubmission(bytes: log.bytes, source: .hockeyApp, fileName: log.head.filename, keyID: key.id,
                                                   userID: text("userID") ?? text("userId"), contact: text("contact"), description: text("description")))
            }
            return submissions
        }
    }

    /// `POST /api/kscrash/<key>`: KSCrash's standard sink, a `reports` part holding a JSON array.
    func kscrashReports(_ request: Request, _ context: Context) async -> Response {
        let read = multipartReader(request, stripsHockeyCRLF: false, fields: ["reports": limits.maxReportBytes * 4], maxParts: 8)
        return await answer(request, context, success: .ok, body: { receipts in Self.receiptsJSON(receipts) }) { key in
            let parts = try read()
            guard let part = parts.first(where: { $0.name == "reports" }) else {
                throw IntakeRefusal(status: .badRequest, message: "the upload has no reports part; KSCrash's standard sink sends a JSON array of reports there")
            }
            let bytes = part.bytes
            let ranges: [Range<Int>]
            do { ranges = try KSCrashBatch.split(bytes) } catch let error as KSCrashBatchError {
                throw IntakeRefusal(status: IntakeRefusal.unprocessable, message: error.description)
            }
            return ranges.enumerated().map { index, range in
                CrashSubmission(bytes: Array(bytes[range]), source: .kscrash, fileName: "kscrash-\(index + 1).json", keyID: key.id)
            }
        }
    }

    /// `POST /api/v1/crashes?key=<key>`: the report as the body; 202 with its receipt. Errors are
    /// RFC 9457 problems, as everywhere under `/api/v1`.
    func rawCrash(_ request: Request, _ context: Context) async -> Response {
        let limit = limits.maxReportBytes
        return await answer(request, context, success: .init(code: 202), problems: context.requestID, body: { receipts in Self.receiptsJSON(receipts, single: true) }) { key in
            let bytes: [UInt8]
            switch request.body {
            case .empty: bytes = []
            case .bytes(let body): bytes = body
            case .file(let file):
                bytes = try file.readAll()
                guard Int64(bytes.count) <= limit else { throw CrashError.tooLarge(size: Int64(bytes.count), limit: limit) }
            }
            return [CrashSubmission(bytes: bytes, source: .raw, fileName: request.queryValue("name"), keyID: key.id,
                                    userID: request.queryValue("user"), contact: request.queryValue("contact"),
                                    description: request.queryValue("description"))]
        }
    }

    /// Runs an SDK upload with the key `IngestKeyAuth` found: reads the submissions, refuses what is not a report,
    /// applies the key's rate limit, stores durably and answers. Errors become plain-text answers.
    /// With `problems` (the request id), errors are problem+json for the API; else plain text for SDKs.
    /// `read` and every check of the bytes run on the blocking pool; the loop only waits.
    private func answer(_ request: Request, _ context: Context, success: HTTPStatus, problems: String? = nil, body: @escaping @Sendable ([CrashReceipt]) -> [UInt8],
                        _ read: @escaping @Sendable (CrashKey) throws -> [CrashSubmission]) async -> Response {
        func plain(_ status: HTTPStatus, _ message: String, retryAfter: Int? = nil) -> Response {
            Self.refusal(request, status, message, retryAfter: retryAfter, problems: problems)
        }
        do {
            let key = try context.require(CrashKey.self)
            let maxBytes = limits.maxReportBytes
            let submissions = try await pool.run { () throws -> [CrashSubmission] in
                let submissions = try read(key)
                guard !submissions.isEmpty else { throw IntakeRefusal(status: .badRequest, message: "the upload holds no report") }
                for submission in submissions {
                    guard Int64(submission.bytes.count) <= maxBytes else { throw CrashError.tooLarge(size: Int64(submission.bytes.count), limit: maxBytes) }
                    guard !submission.bytes.isEmpty else { throw CrashError.empty(name: submission.fileName ?? "the report") }
                    let (accepted, evidence) = CrashStore.recognize(submission.bytes)
                    guard accepted else { throw CrashError.notAReport(name: submission.fileName ?? "the report", evidence: evidence) }
                }
                return submissions
            }
            if let wait = crashes.takeKeyAllowance(keyID: key.id, address: request.clientAddress, cost: submissions.count) {
                let seconds = RateLimiter.retryAfterSeconds(wait)
                throw IntakeRefusal(status: IntakeRefusal.tooManyRequests, message: "too many reports with this key from your address; wait \(seconds) seconds", retryAfter: seconds)
            }
            let receipts = try await crashes.submit(submissions)
            let answer = try await pool.run { body(receipts) }
            var response = Response(status: success, body: .bytes(answer))
            response.headers.set("Content-Type", success == .created ? "text/plain; charset=utf-8" : "application/json")
            response.headers.set("Cache-Control", "no-store")
            return response
        } catch let refusal as IntakeRefusal {
            return plain(refusal.status, refusal.message, retryAfter: refusal.retryAfter)
        } catch let error as CrashError {
            if case .tooLarge = error { return plain(.contentTooLarge, error.description) }
            return plain(error.category == .invalidInput ? IntakeRefusal.unprocessable : .badRequest, error.description)
        } catch let error as BlockingPoolError {
            return plain(.serviceUnavailable, error.description, retryAfter: 5)
        } catch {
            return plain(.internalServerError, "the report could not be stored; try again later")
        }
    }

    /// A refused SDK upload: plain text for the SDKs, or with `problems` (the request id) the
    /// problem+json every `/api/v1` error is.
    static func refusal(_ request: Request, _ status: HTTPStatus, _ message: String, retryAfter: Int? = nil, problems: String?) -> Response {
        guard let requestID = problems else { return plain(status, message, retryAfter: retryAfter) }
        let kind: APIProblem.Kind = switch status.code {
        case 401, 404: .unauthorized
        case 413: .contentTooLarge
        case 415: .unsupportedMediaType
        case 422: .invalidInput
        case 429: .tooManyRequests
        case 503: .serviceUnavailable
        case 400 ..< 500: .badRequest
        default: .internalError
        }
        var headers: HTTPHeaders = [:]
        if let retryAfter { headers.set("Retry-After", String(retryAfter)) }
        return APIProblem(kind, message, headers: headers).response(instance: request.path, requestID: requestID)
    }

    static func plain(_ status: HTTPStatus, _ message: String, retryAfter: Int? = nil) -> Response {
        var response = Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: .bytes(Array((message + "\n").utf8)))
        if let retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    static func receiptsJSON(_ receipts: [CrashReceipt], single: Bool = false) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data?
        if single, let first = receipts.first {
            data = try? encoder.encode(CrashJSON.receipt(first))
        } else {
            data = try? encoder.encode(["reports": receipts.map(CrashJSON.receipt)])
        }
        return data.map { Array($0) + [0x0A] } ?? Array("{}\n".utf8)
    }

    /// "the report is …; send …" as a sentence for a page.
    static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst() + "."
    }

    // MARK: Multipart

    /// One part of an upload form, read into memory (parts are bounded by the form's limits).
    struct FormPart: Sendable {
        var head: MultipartPartHead
        var bytes: [UInt8]
        var name: String { head.name }
        /// The part as UTF-8 text, nil when empty or not UTF-8.
        var text: String? { bytes.isEmpty ? nil : String(validating: bytes, as: UTF8.self) }
    }

    /// A reader of a multipart body, to call on the blocking pool (large parts pass through a
    /// spool file in the home's tmp/): every part read into memory. The boundary is checked when
    /// the reader runs: a missing one is 415, malformed bodies 400, bodies over a limit 413.
    func multipartReader(_ request: Request, stripsHockeyCRLF: Bool, fields: [String: Int64], maxParts: Int) -> @Sendable () throws -> [FormPart] {
        let contentType = request.headers["Content-Type"] ?? ""
        let limits = MultipartLimits(maxParts: maxParts, headerBytesPerPart: 8 * 1024, bytesPerPart: 64 * 1024, bytesPerField: fields,
                                     totalBytes: fields.values.reduce(0, +) + (1 << 20))
        let spool = home.temporaryPath
        let body = request.body
        return {
            let boundary: MultipartBoundary
            do { boundary = try MultipartBoundary(contentType: contentType) } catch let error as MultipartError {
                throw IntakeRefusal(status: IntakeRefusal.unsupportedMediaType, message: error.description)
            }
            do {
                var parser = MultipartParser(boundary: boundary, limits: limits, spoolDirectory: spool, memoryThreshold: 1 << 20,
                                             stripsCRLFBeforeCloseDelimiter: stripsHockeyCRLF)
                let parts: [MultipartPart<MultipartValue>]
                switch body {
                case .empty: parts = try parser.parse([])
                case .bytes(let bytes): parts = try parser.parse(bytes)
                case .file(let file): parts = try parser.parseFile(atPath: file.path)
                }
                return try parts.map { part throws(MultipartError) in FormPart(head: part.head, bytes: try part.value.readAll()) }
            } catch let error as MultipartError {
                switch error.category {
                case .limitExceeded: throw IntakeRefusal(status: .contentTooLarge, message: error.description)
                case .malformed: throw IntakeRefusal(status: .badRequest, message: error.description)
                case .storage, .caller: throw error
                }
            }
        }
    }
}

extension BetaWebApplication {
    /// The access log's form of an SDK target: the ingest key in `/api/2/apps/<key>/…`,
    /// `/api/kscrash/<key>` and `?key=` becomes `…`.
    static func redactIngestKey(_ target: String) -> String {
        var result = target
        for prefix in ["/api/2/apps/", "/api/kscrash/"] {
            guard let range = result.firstRange(of: prefix) else { continue }
            let rest = result[range.upperBound...]
            let end = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            if end > rest.startIndex { result = String(result[..<range.upperBound]) + "…" + String(rest[end...]) }
        }
        return redactCredentialQuery(result)
    }
}
