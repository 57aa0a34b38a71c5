/// A representation's ETag and modification time, and the conditional request rules over them (RFC 9110 §13).
public struct Validators: Sendable {
    /// The strong entity tag, quoted.
    public var etag: String
    /// Last modification, in seconds since the epoch.
    public var modified: Int

    /// Outcome of evaluating preconditions.
    public enum Outcome: Equatable, Sendable {
        /// Serve normally.
        case proceed
        /// Answer 304.
        case notModified
        /// Answer 412.
        case failed
    }

    /// Creates validators.
    public init(etag: String, modified: Int) {
        self.etag = etag
        self.modified = modified
    }

    /// Evaluates If-Match, If-Unmodified-Since, If-None-Match and If-Modified-Since in the order of §13.2.2.
    public func evaluatePreconditions(_ request: Request) -> Outcome {
        let isRead = request.method == .get || request.method == .head
        if request.headers.contains("If-Match") {
            let tags = request.headers.listElements("If-Match")
            if !tags.contains(where: { $0 == "*" || Validators.strongMatch(String($0), etag) }) { return .failed }
        } else if let since = request.headers["If-Unmodified-Since"].flatMap(HTTPDate.parse), modified > since {
            return .failed
        }
        if request.headers.contains("If-None-Match") {
            let tags = request.headers.listElements("If-None-Match")
            if tags.contains(where: { $0 == "*" || Validators.weakMatch(String($0), etag) }) {
                return isRead ? .notModified : .failed
            }
        } else if isRead, let since = request.headers["If-Modified-Since"].flatMap(HTTPDate.parse), modified <= since {
            return .notModified
        }
        return .proceed
    }

    /// Whether If-Range (absent, matching strong ETag, or exact Last-Modified date) lets Range apply.
    public func ifRangeAllows(_ request: Request) -> Bool {
        guard let value = request.headers["If-Range"] else { return true }
        if value.hasPrefix("\"") || value.hasPrefix("W/") { return Validators.strongMatch(value, etag) }
        guard let date = HTTPDate.parse(value) else { return false }
        return date == modified
    }

    static func strongMatch(_ a: String, _ b: String) -> Bool {
        !a.hasPrefix("W/") && !b.hasPrefix("W/") && a == b
    }

    static func weakMatch(_ a: String, _ b: String) -> Bool {
        (a.hasPrefix("W/") ? String(a.dropFirst(2)) : a) == (b.hasPrefix("W/") ? String(b.dropFirst(2)) : b)
    }
}
