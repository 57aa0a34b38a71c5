import BetaServer
import Multipart

/// Reads a `multipart/form-data` request body into its parts, small ones in memory and larger ones
/// in spool files (removed when the parts go away). The body is already on disk when it was large
/// (the engine spools it), so it is parsed from there in chunks and never held in memory whole.
enum FormParts {
    /// The parts of `request`'s body; throws `MultipartError` for a body that is not a valid form.
    static func parse(_ request: Request, limits: MultipartLimits, spoolDirectory: String) throws -> [MultipartPart<MultipartValue>] {
        let boundary = try MultipartBoundary(contentType: request.headers["Content-Type"] ?? "")
        var parser = MultipartParser(boundary: boundary, limits: limits, spoolDirectory: spoolDirectory, memoryThreshold: 64 * 1024)
        switch request.body {
        case .empty: return try parser.parse([])
        case let .bytes(bytes): return try parser.parse(bytes)
        case let .file(file): return try parser.parseFile(atPath: file.path)
        }
    }
}

extension Array {
    /// The text of the first part named `name`, if it is a small UTF-8 field.
    func text(_ name: String) -> String? where Element == MultipartPart<MultipartValue> {
        first(named: name)?.value.text
    }
}
