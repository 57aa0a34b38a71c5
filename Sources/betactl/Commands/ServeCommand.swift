#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer
import BetaWeb

/// `betactl serve`: runs the HTTP server for testers' devices on the home.
enum ServeCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "serve", summary: "Run the web server testers' devices talk to.",
        options: [
            .repeated("--listen", "HOST:PORT",
                      "Address to listen on (default 127.0.0.1:8080; IPv6 as [::1]:8080). May be repeated."),
            .repeated("--trusted-proxy", "ADDR",
                      "A reverse proxy (address or CIDR) whose X-Forwarded-Proto/For/Host headers are believed."),
            .value("--max-connections", "N", "Most simultaneous connections; more get 503 (default 10000)."),
            .value("--templates", "DIR", "Page templates that replace the built-in ones of the same name (branding)."),
            .value("--web", "DIR", "Static files (CSS, JS, images) that replace the built-in ones of the same path."),
            .value("--max-connections-per-ip", "N",
                   "Most simultaneous connections from one client address; more get 503 (default 64, 0 for no cap; trusted proxies are exempt)."),
            .flag("--no-access-log", "Do not write the access log to standard error."),
            .value("--crash-max-size", "BYTES", "Largest crash report accepted (default 10485760, 10 MB); larger ones get 413."),
            .flag("--no-webhooks", "Do not send webhook deliveries (they stay queued for another server or `betactl webhook test`)."),
            .value("--webhook-backoff-scale", "FACTOR",
                   "Multiply webhook retry waits and the day after which a failing endpoint is disabled by FACTOR (default 1; tests use 0.001)."),
            .flag("--no-crash-processing", "Store crash reports but leave them queued for another server or `betactl add-crash` to process."),
            .value("--crash-rate-limit", "N", "Crash reports per minute from one tester link, or one ingest key from one address (default 60, in bursts of up to 20; 0 for no limit; a key from all addresses together gets ten times it); more get 429."),
            .flag("--allow-unverified-enrollment",
                  "Take in enrolment replies not signed by an Apple device (simulators, tests). Never on a real server: anyone with a tester link could make up devices."),
            .value("--enroll-rate-limit", "N",
                   "Enrolment replies per minute from one tester link (default 6, in bursts of up to N, at most 10), and three times that from one client address; 0 for no limit."),
        ],
        discussion: "Put it behind a TLS-terminating proxy such as nginx or Caddy and pass that proxy with "
            + "--trusted-proxy so generated links use https (iOS installs only over https). Settings changed with "
            + "`betactl init` take effect without a restart. SIGTERM or Ctrl-C stops accepting connections and "
            + "lets in-flight downloads finish (up to 30 seconds).",
        group: .server)

    static func run(_ invocation: Invocation) async throws {
        let args = invocation.arguments
        let home = try invocation.openHome()
        let configuration = try configuration(args, home: home)
        let web = try webConfiguration(args, invocation: invocation)
        if web.enrollment.acceptsUnverified {
            invocation.warn("""
                --allow-unverified-enrollment: enrolment replies are NOT VERIFIED. Anyone holding a tester link can make up \
                devices (they still wait as requests for approval). Use it only for simulators and tests, never on a real server.
                """)
        }
        try await serve(home: home, configuration: configuration, web: web,
                        accessLog: !args.flag("--no-access-log"), invocation: invocation)
    }

    /// Runs the web application on `home` until SIGTERM or SIGINT (shared with `demo`).
    static func serve(home: Home, configuration: ServerConfiguration, web: WebConfiguration, accessLog: Bool,
                      invocation: Invocation, onListening: @escaping @Sendable ([ListenAddress]) -> Void = { _ in }) async throws {
        let app = try BetaWebApplication(home: home, configuration: web)
        var log = accessLog ? ServerLog.standardError : ServerLog.messagesOnly
        log.redactTarget = BetaWebApplication.redactTarget
        log.message("serving the betactl home at \(home.path); public URL \(home.settings.publicURL)")
        app.start()
        defer { app.stop() }
        var configuration = configuration
        configuration.serverName = "betactl"
        configuration.spoolFilePrefix = "betactl-body-"
        try await HTTPServer.serve(configuration: configuration, router: app.router, middleware: app.middleware, log: log,
                                   onListening: onListening)
    }

    static func webConfiguration(_ args: ParsedArguments, invocation: Invocation) throws -> WebConfiguration {
        var web = WebConfiguration()
        web.templatesDirectory = args.value("--templates")
        web.webDirectory = args.value("--web")
        web.crashes.processInBackground = !args.flag("--no-crash-processing")
        web.deliversWebhooks = !args.flag("--no-webhooks")
        if let text = args.value("--webhook-backoff-scale") {
            guard let value = Double(text), value.isFinite, value > 0, value <= 1000 else {
                throw UsageError(message: "--webhook-backoff-scale needs a positive factor such as 0.001, got \(text)", command: spec.name)
            }
            web.webhookSchedule = WebhookSchedule.standard.scaled(by: value)
        }
        if let text = args.value("--crash-max-size") {
            guard let value = Int64(text), value > 0 else { throw UsageError(message: "--crash-max-size needs a positive number of bytes, got \(text)", command: spec.name) }
            web.crashes.maxReportBytes = value
        }
        if let text = args.value("--crash-rate-limit") {
            guard let value = Int(text), value >= 0 else { throw UsageError(message: "--crash-rate-limit needs a number of reports per minute (0 for no limit), got \(text)", command: spec.name) }
            web.crashes.reportsPerMinute = value
            web.crashes.burst = max(1, min(value, web.crashes.burst))
        }
        web.enrollment.acceptsUnverified = args.flag("--allow-unverified-enrollment")
        if let text = args.value("--enroll-rate-limit") {
            guard let value = Int(text), value >= 0 else { throw UsageError(message: "--enroll-rate-limit needs a number of replies per minute (0 for no limit), got \(text)", command: spec.name) }
            web.enrollment.setRate(value)
        }
        // For tests only: provisioning jobs stop at this point until the server is killed.
        if let pause = invocation.environment["BETACTL_JOB_PAUSE"], !pause.isEmpty { web.jobPausePoint = pause }
        // A pinned clock (BETACTL_NOW) stays pinned; otherwise pages see the real time as it passes.
        if invocation.environment["BETACTL_NOW"].map({ !$0.isEmpty }) == true {
            let fixed = invocation.now
            web.now = { fixed }
        }
        return web
    }

    static func configuration(_ args: ParsedArguments, home: Home) throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        let listen = args.values("--listen")
        if !listen.isEmpty {
            configuration.listen = try listen.map { text throws(UsageError) in
                do throws(ServerError) {
                    return try ListenAddress(parsing: text)
                } catch {
                    throw UsageError(message: error.description, command: spec.name)
                }
            }
        }
        configuration.trustedProxies = args.values("--trusted-proxy")
        if let text = args.value("--max-connections") {
            guard let value = Int(text), value > 0 else {
                throw UsageError(message: "--max-connections needs a positive number, got \(text)", command: spec.name)
            }
            configuration.maxConnections = value
        }
        if let text = args.value("--max-connections-per-ip") {
            guard let value = Int(text), value >= 0 else {
                throw UsageError(message: "--max-connections-per-ip needs a number (0 for no cap), got \(text)", command: spec.name)
            }
            configuration.maxConnectionsPerIP = value
        }
        configuration.temporaryDirectory = home.temporaryPath
        return configuration
    }
}
