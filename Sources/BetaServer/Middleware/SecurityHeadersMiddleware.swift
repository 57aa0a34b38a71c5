/// Adds security headers to every response that does not set them itself.
///
/// The defaults suit an application that serves its scripts and styles from its own origin:
/// `X-Content-Type-Options: nosniff`, a Content-Security-Policy that allows no inline script,
/// `X-Frame-Options: DENY` and `Referrer-Policy: same-origin`. A route group adds stricter fields
/// (for example `Referrer-Policy: no-referrer` and `Cache-Control: private, no-store` on pages whose
/// URL is a secret) by listing them in `fields`, which win over the defaults.
public struct SecurityHeadersMiddleware: Middleware {
    /// The policy used when none is given: same-origin resources only, no inline script, no framing.
    public static let defaultContentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// The header fields added when absent, in order.
    public let fields: [(name: String, value: String)]

    /// Creates the middleware; `fields` replace defaults of the same name and add to the rest.
    public init(contentSecurityPolicy: String = SecurityHeadersMiddleware.defaultContentSecurityPolicy,
                fields extra: [(name: String, value: String)] = []) {
        var fields: [(name: String, value: String)] = [
            ("X-Content-Type-Options", "nosniff"),
            ("Content-Security-Policy", contentSecurityPolicy),
            ("X-Frame-Options", "DENY"),
            ("Referrer-Policy", "same-origin"),
        ]
        for field in extra {
            if let index = fields.firstIndex(where: { HTTPHeaders.namesEqual($0.name, field.name) }) {
                fields[index] = field
            } else {
                fields.append(field)
            }
        }
        self.fields = fields
    }

    /// Calls `next`, then fills in the fields the response left unset.
    public func respond(to request: Request, context: Context, next: Handler) async throws -> Response {
        var response = try await next(request, context)
        for field in fields where !response.headers.contains(field.name) {
            response.headers.add(field.name, field.value)
        }
        return response
    }
}
