/// Arguments after parsing against a `CommandSpec`.
struct ParsedArguments: Sendable {
    /// Positional values by argument name; repeated arguments collect several.
    var positionals: [String: [String]] = [:]
    /// Option values by option name (with dashes); flags map to an empty list per occurrence.
    var options: [String: [String]] = [:]

    /// The single positional value for `name`, if given.
    func argument(_ name: String) -> String? { positionals[name]?.first }
    /// Every positional value for a repeated argument.
    func arguments(_ name: String) -> [String] { positionals[name] ?? [] }
    /// The last value given for option `name`.
    func value(_ name: String) -> String? { options[name]?.last }
    /// Every value given for a repeatable option.
    func values(_ name: String) -> [String] { options[name] ?? [] }
    /// Whether flag `name` was given.
    func flag(_ name: String) -> Bool { options[name] != nil }
}

/// A mistake in how betactl was invoked. Exit status 64.
struct UsageError: Error, CustomStringConvertible {
    /// What is wrong, with the fix.
    var message: String
    /// The command whose usage to point at, if any.
    var command: String?

    var description: String {
        guard let command else { return message + "; see `betactl --help`" }
        return message + "; see `betactl \(command) --help`"
    }
}

enum ArgumentParser {
    /// Parses `words` (everything after the command name) against `spec` plus the global options.
    static func parse(_ words: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        let known = spec.options + GlobalOptions.specs
        var result = ParsedArguments()
        var positionals: [String] = []
        var index = 0
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            if optionsEnded || !word.hasPrefix("-") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" { optionsEnded = true; continue }
            if word == "-h" { result.options["--help", default: []].append(""); continue }
            guard word.hasPrefix("--") else {
                throw UsageError(message: "unknown option \(word)\(Suggestion.text(for: word, among: known.map(\.name)))", command: spec.name)
            }
            var name = word
            var inlineValue: String?
            if let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            guard let option = known.first(where: { $0.name == name }) else {
                throw UsageError(message: "unknown option \(name) for `\(spec.name)`\(Suggestion.text(for: name, among: known.map(\.name)))", command: spec.name)
            }
            if option.valueName == nil {
                guard inlineValue == nil else { throw UsageError(message: "\(name) is a flag and takes no value", command: spec.name) }
                result.options[name, default: []].append("")
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < words.count else {
                    throw UsageError(message: "\(name) needs a value (\(name) \(option.valueName ?? "VALUE"))", command: spec.name)
                }
                value = words[index]
                index += 1
            }
            if !option.isRepeatable, result.options[name] != nil {
                throw UsageError(message: "\(name) was given more than once", command: spec.name)
            }
            result.options[name, default: []].append(value)
        }
        if result.flag("--help") { return result }
        try assign(positionals, to: spec, into: &result)
        return result
    }

    private static func assign(_ positionals: [String], to spec: CommandSpec, into result: inout ParsedArguments) throws(UsageError) {
        var remaining = positionals[...]
        for argument in spec.arguments {
            if argument.isRepeated {
                if remaining.isEmpty && !argument.isOptional {
                    throw UsageError(message: "missing \(argument.name) (\(argument.help.lowercasedFirst))", command: spec.name)
                }
                result.positionals[argument.name] = Array(remaining)
                remaining = []
            } else if let value = remaining.first {
                result.positionals[argument.name] = [value]
                remaining = remaining.dropFirst()
            } else if !argument.isOptional {
                throw UsageError(message: "missing \(argument.name) (\(argument.help.lowercasedFirst))", command: spec.name)
            }
        }
        if let extra = remaining.first {
            throw UsageError(message: "unexpected argument \"\(extra)\"", command: spec.name)
        }
    }
}

extension String {
    var lowercasedFirst: String {
        guard let first else { return self }
        return first.lowercased() + dropFirst().trimmingSuffix(".")
    }

    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}

extension Substring {
    func trimmingSuffix(_ suffix: String) -> String { String(self).trimmingSuffix(suffix) }
}
