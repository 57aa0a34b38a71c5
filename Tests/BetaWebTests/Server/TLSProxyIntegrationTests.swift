import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `betactl serve --trusted-proxy` behind nginx terminating TLS with a self-signed certificate: every
/// URL in the page and the manifest must be https, or iOS refuses the install.
@Suite(.serialized) struct TLSProxyIntegrationTests {
    @Test func behindATrustedTLSProxyEveryURLIsHTTPS() async throws {
        let fixture = try await WebFixture.make()
        let server = try await fixture.serve(["--trusted-proxy", "127.0.0.1"])
        defer { server.stop() }
        let proxy = try await NginxTLSProxy(upstreamPort: server.port)
        defer { proxy.stop() }
        let page = "\(proxy.base)/t/\(fixture.annToken)"
        let report = try await runClient("ios_install.py", [page, "1"])
        #expect(report["pageStatus"] as? Int == 200)
        let links = try #require(report["links"] as? [String])
        let absolute = links.filter { $0.contains("://") && !$0.hasPrefix("itms-services://") && !$0.hasPrefix("https://example.com") }
        #expect(!absolute.isEmpty)
        #expect(absolute.allSatisfy { $0.hasPrefix(proxy.base + "/") }, "\(absolute.filter { !$0.hasPrefix(proxy.base) })")
        #expect((report["manifestURL"] as? String)?.hasPrefix(proxy.base + "/t/") == true)
        let manifest = try #require(report["manifest"] as? [String: Any])
        let assets = try #require(((manifest["items"] as? [[String: Any]])?.first?["assets"]) as? [[String: String]])
        #expect(assets.count == 3)
        #expect(assets.allSatisfy { $0["url"]?.hasPrefix(proxy.base + "/t/\(fixture.annToken)/releases/1/") == true })
        #expect(report["wholeSHA256"] as? String == report["rangesSHA256"] as? String)
        let html = try await curl(page, ["-k"])
        #expect(!html.text.contains("id=\"insecure\""), "no plain-http warning behind https")
        #expect(!html.text.contains("http://127.0.0.1"))
        // The QR code names the https page too.
        let qr = try await curl("\(page)/qr.png", ["-k"])
        let directory = try TemporaryDirectory("qr")
        let scanned = try await runTool("zbarimg", ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", try directory.write("qr.png", Array(qr.body))])
        #expect(scanned.text.trimmingCharacters(in: .newlines) == page)
        withExtendedLifetime(directory) {}
        // Without --trusted-proxy the same forwarded headers are not believed.
        let untrusted = try await fixture.serve()
        defer { untrusted.stop() }
        let spoofed = try await curl("\(untrusted.base)/t/\(fixture.annToken)", ["-H", "X-Forwarded-Proto: https", "-H", "X-Forwarded-Host: evil.example"])
        #expect(!spoofed.text.contains("https://evil.example"))
        #expect(spoofed.text.contains("id=\"insecure\""))
    }
}

/// Debian's nginx terminating TLS on a free loopback port with a fresh self-signed certificate, in
/// front of `upstreamPort`, as the README's reverse-proxy section configures it.
final class NginxTLSProxy: @unchecked Sendable {
    let directory: TemporaryDirectory
    let port: Int
    let process: ChildProcess
    var base: String { "https://localhost:\(port)" }

    init(upstreamPort: Int) async throws {
        directory = try TemporaryDirectory("nginx")
        chmod(directory.path, 0o755)
        let key = directory.child("key.pem"), cert = directory.child("cert.pem")
        try await blocking { _ = try TestKeys.rsa("nginx-tls", copiedTo: key) }
        let made = try await runTool("openssl", ["req", "-x509", "-key", key, "-out", cert,
                                                 "-days", "2", "-subj", "/CN=localhost"])
        #expect(made.status == 0, "openssl: \(made.error)")
        port = Self.freePort()
        let d = directory.path
        let config = """
            daemon off;
            worker_processes 1;
            pid \(d)/nginx.pid;
            error_log \(d)/error.log;
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path \(d)/body;
                proxy_temp_path \(d)/proxy;
                fastcgi_temp_path \(d)/fastcgi;
                uwsgi_temp_path \(d)/uwsgi;
                scgi_temp_path \(d)/scgi;
                server {
                    listen 127.0.0.1:\(port) ssl;
                    server_name localhost;
                    ssl_certificate \(cert);
                    ssl_certificate_key \(key);
                    location / {
                        proxy_pass http://127.0.0.1:\(upstreamPort);
                        proxy_set_header Host $host:$server_port;
                        proxy_set_header X-Forwarded-Proto $scheme;
                        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                    }
                }
            }
            """
        try directory.write("nginx.conf", Array(config.utf8))
        process = try ChildProcess("/usr/sbin/nginx", ["-c", directory.child("nginx.conf"), "-p", d])
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if (try? await curl("\(base)/healthz", ["-k"]))?.status == 200 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        let log = (try? String(contentsOfFile: directory.child("error.log"), encoding: .utf8)) ?? ""
        Issue.record("nginx did not start: \(log)")
    }

    /// Stops nginx (SIGTERM, then SIGKILL if it has not gone within five seconds).
    func stop() { process.stop(grace: 5) }

    /// A port nothing listens on right now (bound and released; nginx cannot be told to pick one).
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
