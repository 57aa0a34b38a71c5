#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

trace("main")
// A closed pipe (`betactl devices | head`) must end output quietly, not kill the process with SIGPIPE.
signal(SIGPIPE, SIG_IGN)
var probe: [String: String] = [:]
probe["a"] = CommandLine.arguments[0]
trace("dictionary")
let environment = ProcessEnvironment.current()
trace("environment")
let prepared = BetactlCLI.prepare(Array(CommandLine.arguments.dropFirst()), environment: environment, console: .standard)
trace("prepared")
// Synchronous commands finish here, on the main thread, before any concurrency machinery starts.
if let status = BetactlCLI.finishSynchronously(prepared) {
    trace("end")
    exit(status)
}
exit(await BetactlCLI.run(Array(CommandLine.arguments.dropFirst()), environment: environment, console: .standard))
