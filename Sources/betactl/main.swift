// betactl: the thin command line (CLI/ parses, Commands/ has one file per command). It may import
// every module; only `serve` and `demo` import the web app (BetaWeb), the others print BetaJSON shapes.

import CryptoCMS
import HTTPClient
import PosixIO

// A closed pipe (`betactl devices | head`) must end output quietly, not kill the process with SIGPIPE.
CurrentProcess.ignoreBrokenPipe()
// Everything betactl creates is its user's alone: the home holds testers' tokens and devices, and
// the files it writes on request (device lists, entitlements) are theirs too. Explicit modes say
// the same in each place; the mask also covers files made by libraries (SQLite, Foundation).
CurrentProcess.setCreationMask(0o077)
let environment = ProcessEnvironment.current()
// libcrypto is loaded only to sign enrolment profiles; BETACTL_LIBCRYPTO names another copy (tests
// name a missing file to act out a machine without OpenSSL).
if let libcrypto = environment["BETACTL_LIBCRYPTO"], !libcrypto.isEmpty { CryptoLibrary.use(path: libcrypto) }
// libcurl is loaded only to call App Store Connect; BETACTL_LIBCURL names another copy (tests name
// a missing file to act out a machine without it).
if let libcurl = environment["BETACTL_LIBCURL"], !libcurl.isEmpty { CurlLibrary.use(path: libcurl) }
let prepared = BetactlCLI.prepare(Array(CommandLine.arguments.dropFirst()), environment: environment, console: .standard)
// Synchronous commands (symbolicate) finish here, on the main thread: this code runs before the
// first `await`, so the concurrency runtime never starts its worker threads for them.
if let status = BetactlCLI.finishSynchronously(prepared) {
    CurrentProcess.exit(status)
}
CurrentProcess.exit(await BetactlCLI.finish(prepared))
