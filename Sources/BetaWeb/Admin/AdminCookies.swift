import BetaServer

/// The dashboard's cookies: the session id (HttpOnly, SameSite=Strict, Secure behind https, only
/// sent to `/admin`) and the login form's one-time value that makes its CSRF check a double submit.
enum AdminCookies {
    static let session = "betactl_session"
    static let login = "betactl_login"

    /// The value of cookie `name` in the request's `Cookie` headers.
    static func value(_ name: String, in request: Request) -> String? {
        for header in request.headers.values("Cookie") {
            for pair in header.split(separator: ";") {
                let trimmed = pair.trimmingSpaces
                guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else { continue }
                var value = trimmed[trimmed.index(after: equals)...]
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
                return String(value)
            }
        }
        return nil
    }

    /// A `Set-Cookie` value; `maxAge` 0 deletes the cookie.
    static func header(_ name: String, _ value: String, path: String, maxAge: Int, secure: Bool) -> String {
        "\(name)=\(value); Path=\(path); Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }
}

/// Compares two secrets in time that depends only on their lengths, not on where they differ.
func constantTimeEquals(_ a: String, _ b: String) -> Bool {
    let left = Array(a.utf8)
    let right = Array(b.utf8)
    guard left.count == right.count else { return false }
    var difference: UInt8 = 0
    for index in left.indices { difference |= left[index] ^ right[index] }
    return difference == 0
}
