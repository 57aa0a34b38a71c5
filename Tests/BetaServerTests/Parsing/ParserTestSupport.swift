@testable import BetaServer

/// Parses `text` fed all at once; nil when incomplete.
func parseHead(_ text: String, limits: HTTPLimits = HTTPLimits()) throws -> RequestHead? {
    try parseHead(Array(text.utf8), limits: limits)
}

func parseHead(_ bytes: [UInt8], limits: HTTPLimits = HTTPLimits()) throws -> RequestHead? {
    var parser = RequestHeadParser(limits: limits)
    let result = try bytes.withUnsafeBytes { buffer in try parser.parse(buffer) }
    if case .complete(let head, _) = result { return head }
    return nil
}

/// Feeds `text` one byte at a time, as a trickling client would.
func parseHeadIncrementally(_ text: String) throws -> (RequestHead, Int)? {
    let bytes = Array(text.utf8)
    var parser = RequestHeadParser()
    for end in 1...bytes.count {
        let result = try bytes[0..<end].withUnsafeBytes { buffer in try parser.parse(buffer) }
        if case .complete(let head, let consumed) = result { return (head, consumed) }
    }
    return nil
}

/// The error thrown when parsing `text`, or nil.
func parseError(_ text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPParseError? {
    do {
        _ = try parseHead(text, limits: limits)
        return nil
    } catch {
        return error as? HTTPParseError
    }
}
