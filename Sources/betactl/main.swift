#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// A closed pipe (`betactl devices | head`) must end output quietly, not kill the process with SIGPIPE.
signal(SIGPIPE, SIG_IGN)
let status = await BetactlCLI.run(Array(CommandLine.arguments.dropFirst()),
                                  environment: ProcessInfo.processInfo.environment,
                                  console: .standard)
exit(status)
