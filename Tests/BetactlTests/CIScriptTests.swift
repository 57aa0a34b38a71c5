import Foundation
import Testing
import TestSupport

/// Trying betactl installs only what building and running it need; the test clients come with
/// `--test`, which CI uses.
@Suite struct CIScriptTests {
    static let script = Repository.root.appendingPathComponent(".ci/install-deps").path

    static func packages(_ arguments: [String]) async throws -> [String] {
        let result = try await runTool("sh", [script] + arguments + ["--list"])
        #expect(result.status == 0, "install-deps \(arguments): \(result.error)")
        return result.text.split(separator: "\n").map(String.init)
    }

    @Test func plainInstallDepsInstallsOnlyWhatBuildingAndRunningNeed() async throws {
        let plain = try await Self.packages([])
        #expect(plain == ["libsqlite3-dev", "zlib1g-dev", "pkg-config", "libcurl4"])
        let withTests = try await Self.packages(["--test"])
        #expect(Array(withTests.prefix(plain.count)) == plain)
        for tool in ["curl", "python3", "openssl", "nginx", "wrk", "zbar-tools", "lld-19", "llvm-19", "sqlite3"] {
            #expect(withTests.contains(tool), "--test does not install \(tool)")
            #expect(!plain.contains(tool), "the plain install brings the test tool \(tool)")
        }
        let unknown = try await runTool("sh", [Self.script, "--tests"])
        #expect(unknown.status == 64)
        #expect(unknown.error.contains("unknown option '--tests'"))
    }

    @Test func ciInstallsTheTestToolsAndTheReadmeStartsWithThePlainInstall() throws {
        let run = try String(contentsOf: Repository.root.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(run.contains(".ci/install-deps --test\nswift test\n"))
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(".ci/install-deps && swift run betactl demo"))
        #expect(readme.contains(".ci/install-deps --test && swift test"))
    }
}
