import Synchronization

/// Gives every request an id, echoed in `X-Request-Id` so clients and logs can be correlated.
///
/// An incoming `X-Request-Id` is reused only from trusted proxies, so clients
/// cannot inject confusing ids into logs.
public struct RequestIDMiddleware: Middleware {
    private let trusted: TrustedProxies

    /// Creates the middleware; `trusted` decides whose incoming ids are kept.
    public init(trusted: TrustedProxies) { self.trusted = trusted }

    /// Assigns the id and adds the response header.
    public func respond(to request: Request, context: Context, next: Handler) async throws -> Response {
        var context = context
        if let incoming = request.headers["X-Request-Id"], trusted.contains(request.peerAddress),
           !incoming.isEmpty, incoming.utf8.count <= 128, incoming.utf8.allSatisfy(ASCII.isToken) {
            context.requestID = incoming
        } else {
            context.requestID = RequestIDMiddleware.makeID()
        }
        var response = try await next(request, context)
        response.headers.set("X-Request-Id", context.requestID)
        return response
    }

    private static let prefix = UInt64(UInt32.random(in: .min ... .max)) << 32
    private static let counter = Atomic<UInt64>(UInt64(UInt32.random(in: .min ... .max)))

    /// 16 hex digits: a per-process random prefix and a counter, unique without a syscall per request.
    static func makeID() -> String {
        let value = prefix | (counter.wrappingAdd(1, ordering: .relaxed).newValue & 0xFFFF_FFFF)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
