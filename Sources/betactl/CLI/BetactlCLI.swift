/// The betactl command line: finds the command, parses its arguments, runs it and maps errors to exit statuses.
enum BetactlCLI {
    /// The program version printed by `--version`.
    static let version = "0.1.0"

    /// What is left to do after the command line has been read.
    enum Prepared {
        /// Nothing: help, the version or an error was printed, and this is the exit status.
        case finished(Int32)
        /// Run this command.
        case command(any BetactlCommand.Type, Invocation)
    }

    /// Runs the prepared command, asynchronous or not, and returns the exit status.
    static func finish(_ prepared: Prepared) async -> Int32 {
        switch prepared {
        case let .finished(status):
            return status
        case let .command(command, invocation):
            do {
                try await command.run(invocation)
                return ExitStatus.success.rawValue
            } catch {
                return fail(error, console: invocation.console, style: invocation.errorStyle)
            }
        }
    }

    /// Finishes without concurrency when it can: the status, or nil when the command is
    /// asynchronous and must be run with `finish`.
    static func finishSynchronously(_ prepared: Prepared) -> Int32? {
        switch prepared {
        case let .finished(status):
            return status
        case let .command(command, invocation):
            guard let synchronous = command as? any SynchronousCommand.Type else { return nil }
            do {
                try synchronous.runSynchronously(invocation)
                return ExitStatus.success.rawValue
            } catch {
                return fail(error, console: invocation.console, style: invocation.errorStyle)
            }
        }
    }

    /// Reads the command line: prints help, the version or a usage error, or returns the command to run.
    static func prepare(_ arguments: [String], environment: [String: String], console: Console) -> Prepared {
        let noColor = arguments.contains("--no-color")
        let errorStyle = Style.decide(isTerminal: console.errorIsTerminal, environment: environment, noColorFlag: noColor)
        let outputStyle = Style.decide(isTerminal: console.outputIsTerminal, environment: environment, noColorFlag: noColor)
        do {
            let (command, words) = try locateCommand(arguments)
            guard let command else {
                if arguments.contains("--version") {
                    console.writeOut("betactl \(version)\n")
                    return .finished(ExitStatus.success.rawValue)
                }
                let wantsHelp = arguments.contains("--help") || arguments.contains("-h") || arguments.first == "help"
                if let topic = wantsHelp ? arguments.drop(while: { $0 != "help" }).dropFirst().first : nil {
                    guard let match = CommandRegistry.command(named: topic) else {
                        throw UsageError(message: "unknown command \"\(topic)\"\(Suggestion.text(for: topic, among: CommandRegistry.names))", command: nil)
                    }
                    console.writeOut(Help.text(for: match.spec, style: outputStyle))
                    return .finished(ExitStatus.success.rawValue)
                }
                let text = Help.overview(style: wantsHelp ? outputStyle : errorStyle)
                if wantsHelp {
                    console.writeOut(text)
                    return .finished(ExitStatus.success.rawValue)
                }
                console.writeError(text)
                return .finished(ExitStatus.usage.rawValue)
            }
            let parsed = try ArgumentParser.parse(words, spec: command.spec)
            if parsed.flag("--help") {
                console.writeOut(Help.text(for: command.spec, style: outputStyle))
                return .finished(ExitStatus.success.rawValue)
            }
            let invocation = Invocation(spec: command.spec, arguments: parsed, environment: environment, console: console,
                                        style: outputStyle, errorStyle: errorStyle, now: try Invocation.clock(environment: environment))
            return .command(command, invocation)
        } catch {
            return .finished(fail(error, console: console, style: errorStyle))
        }
    }

    /// Prints `error` and returns its exit status.
    static func fail(_ error: any Error, console: Console, style: Style) -> Int32 {
        console.writeError(style.red("error:") + " " + String(describing: error) + "\n")
        return ExitStatus.of(error).rawValue
    }

    /// Splits off the command word; global options may come before it.
    static func locateCommand(_ arguments: [String]) throws(UsageError) -> (command: (any BetactlCommand.Type)?, words: [String]) {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "--home" {
                guard index + 1 < arguments.count else { throw UsageError(message: "--home needs a directory (--home DIR)", command: nil) }
                leading += [word, arguments[index + 1]]
                index += 2
                continue
            }
            if word.hasPrefix("--home=") || word == "--no-color" { leading.append(word); index += 1; continue }
            if word == "--help" || word == "-h" || word == "--version" || word == "help" { return (nil, arguments) }
            if word.hasPrefix("-") {
                throw UsageError(message: "unknown option \(word) before the command\(Suggestion.text(for: word, among: GlobalOptions.specs.map(\.name) + ["--version"]))", command: nil)
            }
            guard let command = CommandRegistry.command(named: word) else {
                throw UsageError(message: "unknown command \"\(word)\"\(Suggestion.text(for: word, among: CommandRegistry.names))", command: nil)
            }
            return (command, leading + arguments[(index + 1)...])
        }
        return (nil, arguments)
    }
}
