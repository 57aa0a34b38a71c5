import Foundation
import Testing
import TestSupport

/// The README's CI instructions work as written: its curl line, run by bash against a live
/// server, publishes a build with its zipped dSYMs and notes from a file, and fails (printing why)
/// when the build is refused; the GitHub Actions step runs the same command.
@Suite(.serialized) struct ReadmeCITests {
    static var readme: String {
        get throws { try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8) }
    }

    /// The first fenced block of `language` after `heading`.
    static func block(after heading: String, language: String) throws -> String {
        let text = try readme
        let section = try #require(text.range(of: heading), "README.md has no \(heading)")
        let fence = try #require(text.range(of: "```\(language)\n", range: section.upperBound ..< text.endIndex))
        let end = try #require(text.range(of: "\n```", range: fence.upperBound ..< text.endIndex))
        return String(text[fence.upperBound ..< end.lowerBound])
    }

    /// A command with its line continuations joined and its spacing normalised.
    static func normalised(_ command: String) -> String {
        command.replacingOccurrences(of: "\\\n", with: " ").split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    @Test func theReadmesCurlLinePublishesABuildAndFailsLoudlyOnARefusal() async throws {
        let command = try Self.block(after: "### Uploading builds from CI", language: "sh")
        #expect(command.hasPrefix("curl "), "the block is the upload: \(command)")
        let directory = try TemporaryDirectory("readme-ci")
        let cli = Betactl(home: directory.child("home"))
        try cli.ok("init", "--team-id", "ABCDE12345")
        try cli.ok("add-tester", "Ann Lee", "--email", "ann@example.com", "--group", "qa")
        let token = try AdminFixture.token(cli, "ci", "write")
        let server = try await ServeProcess.start(cli, ["serve", "--listen", "127.0.0.1:0"])
        defer { server.stop() }
        // A CI workspace: the exported ipa, the archive's dSYMs zipped as the README says, the notes.
        let workspace = directory.child("workspace")
        try FileManager.default.createDirectory(atPath: workspace + "/build", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: WebFixture.app("Beta.ipa"), toPath: workspace + "/build/MyApp.ipa")
        let zipped = try await runTool("python3", ["-c", """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w") as out:
                for source in sys.argv[2:]:
                    with zipfile.ZipFile(source) as dsym:
                        for info in dsym.infolist():
                            out.writestr("dSYMs/" + info.filename, dsym.read(info))
            """, workspace + "/build/dSYMs.zip", WebFixture.app("Beta.app.dSYM.zip"), WebFixture.app("BetaWidget.appex.dSYM.zip")])
        #expect(zipped.status == 0, "\(zipped.error)")
        try "Nightly 1042\n\nFixes the login crash.\n".write(toFile: workspace + "/RELEASE_NOTES.md", atomically: true, encoding: .utf8)
        let environment = ["BETACTL_URL=\(server.base)", "BETACTL_TOKEN=\(token)"]
        let script = "cd '\(workspace)' && \(command)"

        let published = try await runTool("env", environment + ["bash", "-eo", "pipefail", "-c", script], timeout: 300)
        #expect(published.status == 0, "the README's curl line failed: \(published.error) \(published.text)")
        let answer = try #require(try JSONSerialization.jsonObject(with: published.output) as? [String: Any])
        let release = try #require(answer["release"] as? [String: Any])
        #expect(release["notes"] as? String == "Nightly 1042\n\nFixes the login crash.\n")
        #expect(release["groups"] as? [String] == ["qa"] && release["source"] as? String == "MyApp.ipa")
        #expect(answer["addedSymbols"] as? Int == 3, "both dSYMs in the zip were archived")
        #expect((answer["installPages"] as? [[String: Any]])?.first?["tester"] as? String == "Ann Lee")

        // The same build again is refused: curl exits non-zero and prints the problem.
        let refused = try await runTool("env", environment + ["bash", "-eo", "pipefail", "-c", script], timeout: 300)
        #expect(refused.status == 22, "--fail-with-body fails the step")
        let problem = try #require(try JSONSerialization.jsonObject(with: refused.output) as? [String: Any])
        #expect(problem["type"] as? String == "urn:betactl:problem:already-released")
        #expect((problem["detail"] as? String)?.contains("already released as release 1") == true)
        withExtendedLifetime(directory) {}
    }

    @Test func theGitHubActionsStepAndTheFastlaneLaneSendTheSameUpload() throws {
        let command = Self.normalised(try Self.block(after: "### Uploading builds from CI", language: "sh"))
        let step = try Self.block(after: "A GitHub Actions step", language: "yaml")
        let run = try #require(step.components(separatedBy: "run: |\n").last)
        #expect(Self.normalised(run) == command)
        #expect(step.contains("BETACTL_TOKEN: ${{ secrets.BETACTL_TOKEN }}"))
        let lane = try Self.block(after: "A fastlane lane", language: "ruby")
        for piece in ["--fail-with-body", "Authorization: Bearer $BETACTL_TOKEN", "-F ipa=@", "-F dsym=@", "-F \"notes=<", "-F group=qa",
                      "\"$BETACTL_URL/api/v1/releases\""] {
            #expect(lane.contains(piece), "the lane sends \(piece)")
        }
    }

    @Test func theNginxExampleLetsLargeUploadsStreamThrough() throws {
        let nginx = try Self.block(after: "### Reverse proxy", language: "nginx")
        #expect(nginx.contains("client_max_body_size 4g;") && nginx.contains("proxy_request_buffering off;"))
        #expect(nginx.contains("location ~ ^/(api/v1|admin)/(releases|symbols|profiles)$"))
    }
}
