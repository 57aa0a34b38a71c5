#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Response {
    /// An `application/json` response encoding `value` (keys sorted so output is stable).
    public static func json<T: Encodable>(_ value: T, status: HTTPStatus = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        return Response(status: status, headers: ["Content-Type": "application/json"], body: .bytes(Array(data)))
    }
}

extension Request {
    /// Decodes a JSON body as `type`; a malformed body is a 400 that says what failed to decode.
    public func decodeJSON<T: Decodable>(_ type: T.Type, limit: Int64 = 8 * 1024 * 1024) throws -> T {
        let bytes = try body.bytes(limit: limit)
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch {
            throw HTTPError(.badRequest, "the body is not valid JSON for \(type): \(error)")
        }
    }
}
