/// Serves a directory tree read-only; mount it on a wildcard route such as `/files/*path`.
public struct StaticFiles: Sendable {
    /// The directory served.
    public let root: String
    /// The route parameter holding the relative path.
    public let parameter: String
    /// How files are answered.
    public var responder = FileResponder()

    /// Serves `root`, taking the relative path from route parameter `parameter`.
    public init(root: String, parameter: String = "path") {
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
        self.parameter = parameter
    }

    /// The handler to register.
    public var handler: Handler {
        let files = self
        return { request, _ in try files.respond(to: request) }
    }

    /// Resolves the parameter below `root`, refusing traversal and hidden files, and answers with the file.
    public func respond(to request: Request) throws -> Response {
        let relative = request.parameters[parameter] ?? ""
        let segments = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.isEmpty, segments.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") && !$0.contains("\0") })
        else { throw HTTPError(.notFound, "no such file") }
        return try responder.respond(to: request, path: root + "/" + segments.joined(separator: "/"))
    }
}
