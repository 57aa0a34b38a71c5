/// Renders `--help` text from command specs.
enum Help {
    static func overview(style: Style) -> String {
        var out = "\(style.bold("betactl")) — ad hoc beta distribution and provisioning for iOS apps\n\n"
        out += "\(style.bold("USAGE:")) betactl [--home DIR] <command> [arguments] [options]\n"
        let width = (CommandRegistry.all.map { $0.spec.name.count }.max() ?? 10) + 2
        for group in CommandGroup.allCases {
            let commands = CommandRegistry.all.filter { $0.spec.group == group }
            guard !commands.isEmpty else { continue }
            out += "\n\(style.bold(group.rawValue.uppercased() + ":"))\n"
            for command in commands {
                out += "  " + command.spec.name.padding(width) + command.spec.summary + "\n"
            }
        }
        out += "\n\(style.bold("GLOBAL OPTIONS:"))\n"
        for option in GlobalOptions.specs + [.flag("--version", "Print the version.")] {
            out += "  " + optionLabel(option).padding(16) + option.help + "\n"
        }
        out += "\nRun `betactl <command> --help` for a command's arguments and options.\n"
        return out
    }

    static func text(for spec: CommandSpec, style: Style) -> String {
        var usage = "betactl \(spec.name)"
        for argument in spec.arguments {
            var word = argument.name + (argument.isRepeated ? "..." : "")
            if argument.isOptional { word = "[\(word)]" }
            usage += " " + word
        }
        if !spec.options.isEmpty { usage += " [options]" }
        var out = "\(spec.summary)\n\n\(style.bold("USAGE:")) \(usage)\n"
        if !spec.arguments.isEmpty {
            out += "\n\(style.bold("ARGUMENTS:"))\n"
            let width = max(12, (spec.arguments.map { $0.name.count }.max() ?? 0) + 2)
            for argument in spec.arguments { out += "  " + argument.name.padding(width) + argument.help + "\n" }
        }
        let options = spec.options + GlobalOptions.specs
        let width = max(16, (options.map { optionLabel($0).count }.max() ?? 0) + 2)
        out += "\n\(style.bold("OPTIONS:"))\n"
        for option in options {
            out += "  " + optionLabel(option).padding(width) + option.help + (option.isRepeatable ? " (repeatable)" : "") + "\n"
        }
        if let discussion = spec.discussion { out += "\n" + discussion + "\n" }
        return out
    }

    static func optionLabel(_ option: OptionSpec) -> String {
        option.valueName.map { "\(option.name) \($0)" } ?? option.name
    }
}

extension String {
    /// Pads with spaces to at least `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
