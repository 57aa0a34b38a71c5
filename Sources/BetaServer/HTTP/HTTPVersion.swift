/// The protocol version of a request line (`HTTP/1.0` or `HTTP/1.1`).
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    /// The major version digit.
    public let major: Int
    /// The minor version digit.
    public let minor: Int

    /// Creates a version from its two digits.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// HTTP/1.0
    public static let http10 = HTTPVersion(major: 1, minor: 0)
    /// HTTP/1.1
    public static let http11 = HTTPVersion(major: 1, minor: 1)

    /// `HTTP/major.minor`
    public var description: String { "HTTP/\(major).\(minor)" }
}
