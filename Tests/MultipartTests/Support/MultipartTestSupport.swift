import Foundation
import Testing
@testable import Multipart

/// A part as the tests compare it: head and body bytes.
struct ParsedPart: Equatable, CustomStringConvertible {
    var head: MultipartPartHead
    var body: [UInt8]

    var description: String { "\(head.name)(\(head.filename ?? "-"), \(body.count) bytes)" }
}

/// What parsing a body gave: its parts, or the error.
enum Outcome: Equatable, CustomStringConvertible {
    case parts([ParsedPart])
    case failed(MultipartError)

    var description: String {
        switch self {
        case .parts(let parts): "parts \(parts)"
        case .failed(let error): "failed: \(error)"
        }
    }

    var parts: [ParsedPart]? {
        if case .parts(let parts) = self { return parts }
        return nil
    }

    var error: MultipartError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}

/// Keeps a part's body in memory, for comparing.
struct CollectingConsumer: MultipartPartConsumer {
    var bytes: [UInt8] = []
    mutating func consume(_ chunk: UnsafeRawBufferPointer) { bytes.append(contentsOf: chunk) }
    mutating func finish() -> [UInt8] { bytes }
    mutating func discard() { bytes = [] }
}

/// Parses `body` fed in the pieces that the cut offsets make (all at once when there are none).
func parse(_ body: [UInt8], boundary: String = Bodies.boundary, cuts: [Int] = [], limits: MultipartLimits = MultipartLimits(),
           stripsCRLF: Bool = false) -> Outcome {
    do {
        var parser = MultipartParser(boundary: try MultipartBoundary(boundary), limits: limits, stripsCRLFBeforeCloseDelimiter: stripsCRLF) { _ in
            CollectingConsumer()
        }
        var start = 0
        for cut in cuts.sorted() + [body.count] where cut >= start {
            try parser.feed(Array(body[start..<cut]))
            start = cut
        }
        return .parts(try parser.finish().map { ParsedPart(head: $0.head, body: $0.value) })
    } catch {
        return .failed(error)
    }
}

/// Parses `body` fed one byte at a time.
func parseBytewise(_ body: [UInt8], boundary: String = Bodies.boundary, limits: MultipartLimits = MultipartLimits(), stripsCRLF: Bool = false) -> Outcome {
    parse(body, boundary: boundary, cuts: Array(0..<body.count), limits: limits, stripsCRLF: stripsCRLF)
}

/// Deterministic pseudo-random numbers (xorshift), so a failing split can be reproduced.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed | 1 }
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}

/// Builds bodies and remembers which bytes play which role, so sweeps can say what a change
/// to a byte must do.
struct BodyBuilder {
    enum Role: Equatable {
        case preamble
        /// `CRLF--boundary` (or `--boundary` at the very start) of delimiter `index`.
        case delimiter(Int)
        /// What ends delimiter `index`'s line: CRLF, or `--` for the closing one.
        case lineEnd(Int)
        case headers(Int)
        case content(Int)
        case epilogue
    }

    let boundary: String
    private(set) var bytes: [UInt8] = []
    private(set) var roles: [Role] = []
    private(set) var parts: [ParsedPart] = []
    private(set) var closeEnd = 0
    private var delimiters = 0

    init(boundary: String = Bodies.boundary) { self.boundary = boundary }

    private mutating func append(_ new: [UInt8], _ role: Role) {
        bytes += new
        roles += Array(repeating: role, count: new.count)
    }

    private mutating func delimiter() {
        let prefix = bytes.isEmpty ? "" : "\r\n"
        append(Array((prefix + "--" + boundary).utf8), .delimiter(delimiters))
    }

    mutating func preamble(_ text: String) { append(Array(text.utf8), .preamble) }

    /// A part with `name`, optional `filename` and `contentType`, and `body`.
    mutating func part(_ name: String, filename: String? = nil, contentType: String? = nil, extraHeaders: [String] = [], body: [UInt8]) {
        delimiter()
        append(Array("\r\n".utf8), .lineEnd(delimiters))
        var lines = ["Content-Disposition: form-data; name=\"\(name)\"" + (filename.map { "; filename=\"\($0)\"" } ?? "")]
        if let contentType { lines.append("Content-Type: " + contentType) }
        lines += extraHeaders
        append(Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8), .headers(parts.count))
        append(body, .content(parts.count))
        var fields = [MultipartPartHead.Field(name: "Content-Disposition", value: String(lines[0].dropFirst("Content-Disposition: ".count)))]
        for line in lines.dropFirst() {
            let pieces = line.split(separator: ":", maxSplits: 1)
            fields.append(MultipartPartHead.Field(name: String(pieces[0]), value: pieces[1].trimmingCharacters(in: .whitespaces)))
        }
        let head = MultipartPartHead(index: parts.count, name: name, filename: filename, contentType: contentType ?? "text/plain", fields: fields)
        parts.append(ParsedPart(head: head, body: body))
        delimiters += 1
    }

    mutating func close(epilogue: String = "\r\n") {
        delimiter()
        append(Array("--".utf8), .lineEnd(delimiters))
        closeEnd = bytes.count
        append(Array(epilogue.utf8), .epilogue)
    }

    /// Offset just after delimiter `index`'s `--boundary`.
    func delimiterEnd(_ index: Int) -> Int {
        (roles.lastIndex(of: .delimiter(index)) ?? -1) + 1
    }

    func range(of role: Role) -> Range<Int> {
        guard let first = roles.firstIndex(of: role), let last = roles.lastIndex(of: role) else { return 0..<0 }
        return first..<(last + 1)
    }
}

/// Bodies and boundaries shared by the suites.
enum Bodies {
    static let boundary = "XyZ0123456789boundary"

    /// Three parts (a text field, a file with CRs and LFs, an empty field) after a short preamble.
    static func small() -> BodyBuilder {
        var builder = BodyBuilder()
        builder.preamble("This is the preamble.\r\n")
        builder.part("description", body: Array("It crashed when I tapped Save.".utf8))
        builder.part("report", filename: "app.crash", contentType: "text/plain",
                     body: Array("Incident Identifier: 1\r\n\r\n--not a boundary\r\nThread 0 Crashed:\n0 libswiftCore\r".utf8))
        builder.part("empty", body: [])
        builder.close(epilogue: "\r\nepilogue text")
        return builder
    }

    static func text(_ string: String) -> [UInt8] { Array(string.utf8) }
}
