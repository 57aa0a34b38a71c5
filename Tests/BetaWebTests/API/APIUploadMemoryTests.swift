import Foundation
import Testing
import TestSupport

/// A 300 MB build uploaded the way CI uploads it: the server streams it to disk (never into
/// memory), refuses it exactly as `release` does when its dSYMs are missing, publishes it when
/// they come with it, and its peak resident memory stays under 100 MB throughout.
@Suite(.serialized) struct APIUploadMemoryTests {
    /// The server's peak resident set (VmHWM) in bytes.
    static func peakResident(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kilobytes = try #require(Int(line.split(separator: " ").dropFirst().first { !$0.isEmpty } ?? ""))
        return kilobytes * 1024
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "reads the peak RSS from /proc"))
    func aThreeHundredMegabyteBuildStreamsToDiskWithTheServerUnder100MB() async throws {
        let directory = try TemporaryDirectory("bigupload")
        let big = directory.child("Big.ipa")
        let made = try await runTool("python3", [Repository.root.appendingPathComponent("Tests/Clients/make_big_ipa.py").path,
                                                 WebFixture.app("Beta.ipa"), big, "300"], timeout: 600)
        #expect(made.status == 0, "make_big_ipa.py failed: \(made.error)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: big)[.size] as? Int)
        #expect(size >= 300 << 20)
        let cli = Betactl(home: directory.child("home"))
        try cli.ok("init", "--team-id", "ABCDE12345")
        let token = try AdminFixture.token(cli, "ci", "write")
        let server = try await ServeProcess.start(cli, ["serve", "--listen", "127.0.0.1:0", "--no-access-log"])
        defer { server.stop() }
        let pid = server.process.processIdentifier

        // Without its dSYMs the build is refused, with the sentence `release` prints.
        let refused = try await api(server, "POST", "/releases", token: token, ["-F", "ipa=@\(big)", "--max-time", "900"])
        let problem = try refused.problem(422, "build-refused")
        let reasons = (problem["errors"] as? [[String: Any]] ?? []).compactMap { $0["detail"] as? String }
        #expect(reasons.count == 1 && reasons.first?.hasPrefix("no dSYM matches 3 executable slices") == true, "\(reasons)")
        // The big build holds Beta.ipa's executables: the CLI refuses that (a debug build of the CLI
        // would spend half a minute hashing the 300 MB one) with the very same sentence.
        #expect(reasons == (try cliRefusals(cli, "release", WebFixture.app("Beta.ipa"))), "the CLI refuses the build for the same reason")

        let answer = try await api(server, "POST", "/releases", token: token, [
            "-F", "ipa=@\(big)", "-F", "dsym=@\(WebFixture.app("Beta.app.dSYM.zip"))", "-F", "dsym=@\(WebFixture.app("BetaWidget.appex.dSYM.zip"))",
            "--max-time", "900",
        ])
        #expect(answer.status == 201, "\(answer.text.prefix(500))")
        let release = try #require(try answer.object()["release"] as? [String: Any])
        let sha = try await runTool("sha256sum", [big]).text.prefix(64)
        #expect(release["sha256"] as? String == String(sha))
        let peak = try Self.peakResident(pid)
        #expect(peak < 100 << 20, "the server's peak resident memory was \(peak >> 20) MB")
        // The archived package is the upload, byte for byte; nothing is left in tmp/.
        let blob = cli.home + "/blobs/" + sha.prefix(2) + "/" + sha
        let stored = try? FileManager.default.attributesOfItem(atPath: String(blob))[.size] as? Int
        #expect(stored == size, "the blob \(blob) holds the whole upload")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.home + "/tmp").isEmpty)
        withExtendedLifetime(directory) {}
    }
}
