#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer
import BetaWeb
import PosixIO

/// `betactl demo`: a seeded sandbox home, served at once so the pages can be looked at.
enum DemoCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "demo", summary: "Create a seeded sandbox home and serve it locally.",
        options: [
            .value("--dir", "DIR", "Create (or reuse) the sandbox in DIR (default: a new temporary directory)."),
            .repeated("--listen", "HOST:PORT", "Address to serve on (default 127.0.0.1:8080)."),
            .flag("--no-serve", "Only create and seed the sandbox; do not start the server."),
        ],
        discussion: "The sandbox never touches your real home. It holds three testers with devices, a release with "
            + "an icon, notes and its dSYMs offered to the qa group, a revoked release, a device missing from the "
            + "build's profile, a device request waiting for approval, and crash reports: a symbolicated crash sent by two "
            + "testers, one waiting for symbols and a low-memory (jetsam) report, and a webhook to a local port nobody listens on. Each run prints a dashboard link that "
            + "logs in once. Ctrl-C stops the server; remove the directory when done.",
        group: .setup)

    static func run(_ invocation: Invocation) async throws {
        let args = invocation.arguments
        var server = ServerConfiguration()
        server.listen = [ListenAddress(host: "127.0.0.1", port: 8080)]
        let listen = args.values("--listen")
        if !listen.isEmpty {
            server.listen = try listen.map { text throws(UsageError) in
                do throws(ServerError) { return try ListenAddress(parsing: text) } catch {
                    throw UsageError(message: error.description, command: spec.name)
                }
            }
        }
        let directory = try args.value("--dir") ?? makeTemporaryDirectory(environment: invocation.environment)
        let publicURL = "http://\(server.listen[0])"
        if FileKind(path: directory + "/" + Home.databaseName) == .regularFile {
            let existing = try Home.open(at: directory)
            guard existing.settings.isDemo else { throw DemoError.notADemoHome(directory) }
        }
        let home = try Home.initialise(at: directory, change: HomeSettingsChange(teamID: "ABCDE12345", publicURL: publicURL,
                                                                                 brandName: "Demo Beta", isDemo: true),
                                       now: invocation.now).home
        if try Roster(home: home).testers().isEmpty {
            try DemoSeed.seed(home: home, now: invocation.now)
        }
        server.temporaryDirectory = home.temporaryPath
        let loginKey = try DemoLogin(home: home).mint(now: invocation.now)
        let style = invocation.style
        invocation.print(style.bold("betactl demo sandbox") + " at \(directory)")
        if args.flag("--no-serve") {
            printSummary(home: home, base: publicURL, loginKey: loginKey, invocation: invocation)
            invocation.print("\nServe it with:\n  betactl --home \(directory) serve --listen \(server.listen[0])")
            return
        }
        try await ServeCommand.serve(home: home, configuration: server, web: try ServeCommand.webConfiguration(args, invocation: invocation),
                                     accessLog: false, invocation: invocation) { addresses in
            let base = addresses.first.map { "http://\($0)" } ?? publicURL
            printSummary(home: home, base: base, loginKey: loginKey, invocation: invocation)
            invocation.print("\nServing on \(base); press Ctrl-C to stop. Try `betactl --home \(directory) devices` in another terminal.")
        }
    }

    static func printSummary(home: Home, base: String, loginKey: String, invocation: Invocation) {
        invocation.print("\nDashboard (this link logs you in once; run demo again for a new one):")
        invocation.print("  \(base)/admin/login/demo/\(loginKey)")
        do {
            let roster = Roster(home: home)
            invocation.print("\nTester pages (open one in a browser; use your browser's iPhone emulation to see Install):")
            for tester in try roster.testers() {
                invocation.print("  \(tester.name.padding(14)) \(base)/t/\(tester.token)")
            }
            invocation.print("")
            for family in try roster.usage(now: invocation.now).families where family.used > 0 {
                invocation.print("  \(family.family.displayName.padding(14)) \(family.used)/\(family.limit) slots used (\(family.removed) removed still count until \(family.renews))")
            }
        } catch {
            invocation.warn("cannot list the sandbox: \(error)")
        }
    }

    static func makeTemporaryDirectory(environment: [String: String]) throws -> String {
        let base = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        do {
            return try FileSystem.makeTemporaryDirectory(template: (base.hasSuffix("/") ? base : base + "/") + "betactl-demo-XXXXXX")
        } catch {
            throw FileSystemError(operation: "create a temporary directory in", path: base, errno: error.errno)
        }
    }
}

/// Why `demo` refused to run.
enum DemoError: Error, CustomStringConvertible, CategorizedError {
    /// `--dir` names a real home.
    case notADemoHome(String)

    var description: String {
        switch self {
        case let .notADemoHome(path):
            "\(path) holds a betactl home that `demo` did not make; demo only reuses its own sandboxes, so choose a new directory with --dir (or leave it out)"
        }
    }

    var category: ErrorCategory { .refused }
}
