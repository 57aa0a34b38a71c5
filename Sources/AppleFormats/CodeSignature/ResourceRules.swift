/// The `rules2` (or legacy `rules`) of a `_CodeSignature/CodeResources`: which files the seal
/// covers, which it omits and which are nested code, decided by the heaviest matching pattern.
public struct ResourceRules {
    /// What a rule says about a file it matches.
    public struct Rule {
        /// The pattern as written (a POSIX extended regular expression on the relative path).
        public var pattern: String
        /// Files that need not be there.
        public var optional: Bool
        /// Files left out of the seal.
        public var omit: Bool
        /// Files that are nested code, sealed by their own CDHash.
        public var nested: Bool
        /// The rule's precedence; the heaviest match wins.
        public var weight: Double
        let regex: Regex<AnyRegexOutput>?
    }

    /// The rules, heaviest first.
    public var rules: [Rule]

    /// The patterns codesign writes (every version betactl knows). Only these are evaluated: a
    /// build's CodeResources is untrusted input, and an arbitrary pattern could make matching take
    /// exponential time; iOS itself has ignored custom resource rules since iOS 9.
    static let knownPatterns: Set<String> = [
        "^", "^.*", "^version.plist$", "^version\\.plist$", "^.*\\.lproj/", "^.*\\.lproj/locversion.plist$", "^Base\\.lproj/",
        ".*\\.dSYM($|/)", "^(.*/)?\\.DS_Store$", "^Info\\.plist$", "^PkgInfo$", "^embedded\\.provisionprofile$", "^[^/]+$",
        "^(Frameworks|SharedFrameworks|PlugIns|Plug-ins|XPCServices|Helpers|MacOS|Library/(Automator|Spotlight|LoginItems))/",
        "^ResourceRules\\.plist$", "^(Frameworks|SharedFrameworks|PlugIns|Plug-ins|XPCServices|Helpers|MacOS)/",
    ]
    // A real bundle has about a dozen rules.
    static let maxRules = 64

    /// Reads a `rules`/`rules2` dictionary. Patterns codesign does not write, and any beyond the
    /// first 64, are ignored (see `knownPatterns`).
    public init(_ dictionary: [String: PlistValue]) {
        var rules: [Rule] = []
        for (pattern, value) in dictionary.sorted(by: { $0.key < $1.key }).prefix(Self.maxRules) where Self.knownPatterns.contains(pattern) {
            let settings = value.dictionary ?? [:]
            if case .bool(false) = value { continue }
            rules.append(Rule(pattern: pattern, optional: settings["optional"]?.bool ?? false,
                              omit: settings["omit"]?.bool ?? false, nested: settings["nested"]?.bool ?? false,
                              weight: Self.number(settings["weight"]) ?? 1, regex: try? Regex(pattern)))
        }
        // Heaviest first; on equal weight an omission wins (codesign leaves `Info.plist` out although
        // `^` weighs as much), then nested code, then the pattern for a stable order.
        self.rules = rules.sorted { a, b in
            if a.weight != b.weight { return a.weight > b.weight }
            if a.omit != b.omit { return a.omit }
            if a.nested != b.nested { return a.nested }
            return a.pattern < b.pattern
        }
    }

    static func number(_ value: PlistValue?) -> Double? {
        switch value {
        case let .real(number): number
        case let .integer(number): Double(number)
        default: nil
        }
    }

    /// The heaviest rule matching `relativePath`, or nil.
    public func rule(for relativePath: String) -> Rule? {
        rules.first { rule in
            guard let regex = rule.regex else { return false }
            return (try? regex.firstMatch(in: relativePath)) != nil
        }
    }
}
