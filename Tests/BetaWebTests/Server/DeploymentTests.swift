import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The files in `deploy/` are checked by the tools that read them, and Debian's Caddy with `tls
/// internal` in front of `betactl serve --trusted-proxy 127.0.0.1` yields https links everywhere.
@Suite(.serialized) struct DeploymentTests {
    static func deploy(_ name: String) -> String { Repository.root.appendingPathComponent("deploy/\(name)").path }

    @Test func theSystemdUnitPassesSystemdAnalyzeVerify() async throws {
        // verify insists that the binary exists: point the unit at the one this build made.
        let unit = try String(contentsOfFile: Self.deploy("betactl.service"), encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/betactl", with: Betactl.executable.path)
        for directive in ["DynamicUser=yes", "ProtectSystem=strict", "StateDirectory=betactl", "NoNewPrivileges=yes"] {
            #expect(unit.contains("\n\(directive)\n"), "the unit sets \(directive)")
        }
        let directory = try TemporaryDirectory("unit")
        let path = try directory.write("betactl.service", Array(unit.utf8))
        let verified = try await runTool("systemd-analyze", ["verify", path])
        #expect(verified.status == 0, "systemd-analyze verify: \(verified.error)")
        #expect(verified.error.isEmpty, "systemd-analyze verify warned: \(verified.error)")
        withExtendedLifetime(directory) {}
    }

    @Test func theCaddyfileIsValidAndNeverCompressesTokenPages() async throws {
        let checked = try await runTool("caddy", ["validate", "--config", Self.deploy("Caddyfile"), "--adapter", "caddyfile"],
                                        environment: Caddy.environment(try TemporaryDirectory("caddy-home").path))
        #expect(checked.status == 0, "caddy validate: \(checked.error)")
        #expect(checked.error.contains("Valid configuration") || checked.text.contains("Valid configuration"))
        let text = try String(contentsOfFile: Self.deploy("Caddyfile"), encoding: .utf8)
        #expect(!text.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("encode") },
                "compressing token pages would expose them to BREACH")
    }

    @Test func theContainerfileBuildsTheBinaryAndRunsItUnprivilegedWithAVolume() throws {
        let text = try String(contentsOfFile: Self.deploy("Containerfile"), encoding: .utf8)
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.filter { $0.hasPrefix("FROM ") }.count == 2, "a multi-stage build")
        #expect(lines.contains { $0.hasPrefix("FROM ") && $0.contains("debian:bookworm-slim") })
        // Every path copied from the build context exists in the repository.
        for line in lines where line.hasPrefix("COPY ") && !line.contains("--from") {
            let parts = line.split(separator: " ").dropFirst().dropLast()
            for source in parts {
                #expect(FileManager.default.fileExists(atPath: Repository.root.appendingPathComponent(String(source)).path), "\(source) exists")
            }
        }
        let user = try #require(lines.last { $0.hasPrefix("USER ") })
        #expect(user != "USER root" && user != "USER 0")
        #expect(lines.contains("VOLUME /var/lib/betactl"))
        #expect(text.contains("BETACTL_HOME=/var/lib/betactl"))
    }

    @Test func behindCaddyWithTLSInternalTheManifestURLsAreHTTPS() async throws {
        let fixture = try await WebFixture.make()
        let server = try await fixture.serve(["--trusted-proxy", "127.0.0.1"])
        defer { server.stop() }
        let caddy = try await Caddy(upstreamPort: server.port)
        defer { caddy.stop() }
        let page = "\(caddy.base)/t/\(fixture.annToken)"
        let report = try await runClient("ios_install.py", [page, "1"])
        #expect(report["pageStatus"] as? Int == 200)
        #expect((report["manifestURL"] as? String)?.hasPrefix(caddy.base + "/t/") == true)
        let manifest = try #require(report["manifest"] as? [String: Any])
        let assets = try #require(((manifest["items"] as? [[String: Any]])?.first?["assets"]) as? [[String: String]])
        #expect(!assets.isEmpty)
        #expect(assets.allSatisfy { $0["url"]?.hasPrefix("https://") == true && $0["url"]?.hasPrefix(caddy.base) == true })
        #expect(report["wholeSHA256"] as? String == report["rangesSHA256"] as? String)
        let html = try await curl(page, ["-k", "-H", "Accept-Encoding: gzip, zstd"])
        #expect(html.headers["content-encoding"] == nil)
        #expect(!html.text.contains("http://"), "no plain-http link behind Caddy")
    }
}

/// Debian's Caddy on a free loopback port with `tls internal` (its own local CA, not installed into
/// the system's trust store), in front of `upstreamPort`.
final class Caddy: @unchecked Sendable {
    let directory: TemporaryDirectory
    let port: Int
    let process: ChildProcess
    var base: String { "https://localhost:\(port)" }

    static func environment(_ home: String) -> [String: String] {
        ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config", "PATH": "/usr/bin:/bin"]
    }

    init(upstreamPort: Int) async throws {
        directory = try TemporaryDirectory("caddy")
        port = NginxTLSProxy.freePort()
        let config = """
            {
                admin off
                skip_install_trust
                auto_https disable_redirects
                http_port \(NginxTLSProxy.freePort())
                https_port \(port)
            }
            https://localhost:\(port) {
                tls internal
                reverse_proxy 127.0.0.1:\(upstreamPort)
            }
            """
        let file = try directory.write("Caddyfile", Array(config.utf8))
        let log = directory.child("caddy.log")
        process = try ChildProcess("/usr/bin/caddy", ["run", "--config", file, "--adapter", "caddyfile"],
                                   environment: Self.environment(directory.path), error: .file(log))
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if (try? await curl("\(base)/healthz", ["-k"]))?.status == 200 { return }
            try await Task.sleep(for: .milliseconds(200))
        }
        Issue.record("caddy did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
    }

    func stop() { process.stop(grace: 10) }
}
