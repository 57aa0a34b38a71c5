#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaServer

/// A JSON request body with a fixed set of fields: any other field is refused, so a typo such as
/// `group` for `groups` is an error instead of being silently ignored.
protocol APIRequestBody: Decodable {
    /// The field names the body may have.
    static var fields: [String] { get }
}

/// Any JSON value, skipped while checking which fields a body has.
private struct SkippedJSON: Decodable {
    init(from decoder: any Decoder) throws {}
}

extension Request {
    /// The body as `T`: the media type must be JSON, every field known, every value the right type.
    func apiBody<T: APIRequestBody>(_ type: T.Type) throws -> T {
        let mediaType = (headers["Content-Type"] ?? "").split(separator: ";").first.map { $0.trimmingSpaces.lowercased() } ?? ""
        guard mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json")) else {
            throw APIProblem(.unsupportedMediaType, "the body must be JSON sent as Content-Type: application/json, not \(mediaType.isEmpty ? "no Content-Type" : mediaType)")
        }
        let bytes = try body.bytes(limit: 1 << 20)
        do { try JSONNesting.check(bytes) } catch {
            throw APIProblem(.invalidJSON, "the body's \(error); send a flat object with the fields \(T.fields.joined(separator: ", "))")
        }
        let data = Data(bytes)
        let keys: [String]
        do {
            keys = Array(try JSONDecoder().decode([String: SkippedJSON].self, from: data).keys)
        } catch {
            throw APIProblem(.invalidJSON, "the body is not a JSON object; send one with the fields \(T.fields.joined(separator: ", "))")
        }
        if let unknown = keys.sorted().first(where: { !T.fields.contains($0) }) {
            throw APIProblem(.invalidJSON, "the body has the field \"\(String(unknown.prefix(60)))\", which this operation does not take; its fields are \(T.fields.joined(separator: ", "))")
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw APIProblem(.invalidJSON, Self.describe(error))
        }
    }

    /// One sentence for a decoding error: which field, and what was expected.
    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.isEmpty ? "the body" : "the field " + codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case let .keyNotFound(key, context):
            return "\(path(context.codingPath + [key])) is required"
        case let .typeMismatch(type, context):
            return "\(path(context.codingPath)) must be \(Self.jsonName(type))"
        case let .valueNotFound(type, context):
            return "\(path(context.codingPath)) must be \(Self.jsonName(type)), not null"
        case let .dataCorrupted(context):
            return "\(path(context.codingPath)) cannot be read: \(context.debugDescription)"
        @unknown default:
            return "the body cannot be read as this operation's JSON"
        }
    }

    static func jsonName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type: "an integer"
        case is [String].Type: "a list of strings"
        default: "a JSON \(type)"
        }
    }
}

extension Response {
    /// An API JSON response; `location` sets the Location header of a 201.
    static func api<T: Encodable>(_ value: T, status: HTTPStatus = .ok, location: String? = nil) throws -> Response {
        var response = try Response.json(value, status: status)
        if let location { response.headers.set("Location", location) }
        return response
    }
}
