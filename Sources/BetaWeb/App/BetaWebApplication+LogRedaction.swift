extension BetaWebApplication {
    /// Rewrites the values of query parameters that carry credentials (`key`, `token`,
    /// `access_token`, `api_key`, `secret`, `password`, `session`, … by name, or a bare betactl
    /// token) to `…`: such a request is refused, but its target still goes to the access log.
    static func redactCredentialQuery(_ target: String) -> String {
        guard let question = target.firstIndex(of: "?") else { return target }
        let query = target[target.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name = pair.prefix { $0 != "=" }
            if name.lowercased().hasPrefix("bct_") { return "…" }
            return isCredentialName(name) && name.count < pair.count ? name + "=…" : String(pair)
        }
        return String(target[...question]) + query.joined(separator: "&")
    }

    /// Whether a query parameter of this name carries a credential: its name (percent-decoding
    /// aside) contains token, key, secret, password, passwd, auth, session, signature or
    /// credential, or is one of sig, code, pwd, jwt.
    static func isCredentialName(_ name: Substring) -> Bool {
        let lowered = name.lowercased()
        return ["token", "key", "secret", "password", "passwd", "auth", "session", "signature", "credential"].contains { lowered.contains($0) }
            || ["sig", "code", "pwd", "jwt"].contains(lowered)
    }
}
