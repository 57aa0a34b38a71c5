import Foundation
import Testing
import TestSupport

/// Releases, symbols and profiles through the API as CI uploads them: a build streamed as
/// multipart/form-data is validated as `betactl release` validates it and answered with the
/// release and its testers' install pages; every refusal comes at once as a 422 problem.
@Suite(.serialized) struct APIReleaseTests {
    static func app(_ name: String) -> String { WebFixture.app(name) }

    /// The files a home's tmp/ holds: staging folders and spooled bodies must all be gone.
    static func leftovers(_ fixture: AdminFixture) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: fixture.cli.home + "/tmp")
    }

    @Test func anUploadedBuildIsPublishedWithItsSymbolsAndItsTestersInstallPages() async throws {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let sha = try await runTool("sha256sum", [Self.app("Beta.ipa")]).text.prefix(64)
        let answer = try await api(server, "POST", "/releases", token: fixture.write, [
            "-F", "ipa=@\(Self.app("Beta.ipa"))", "-F", "dsym=@\(Self.app("Beta.app.dSYM.zip"))",
            "-F", "dsym=@\(Self.app("BetaWidget.appex.dSYM.zip"))", "-F", "notes=Fixes the crash on launch", "-F", "group=qa",
            "-F", "again=true",
        ])
        #expect(answer.status == 201, "\(answer.text)")
        let created = try answer.object()
        let release = try #require(created["release"] as? [String: Any])
        let id = try #require(release["id"] as? Int)
        #expect(id == 4 && answer.headers["location"] == "/api/v1/releases/4")
        #expect(release["sha256"] as? String == String(sha), "the archived package is the uploaded file")
        #expect(release["source"] as? String == "Beta.ipa" && release["notes"] as? String == "Fixes the crash on launch")
        #expect(created["earlierRelease"] as? Int == 1)
        #expect(created["dashboard"] as? String == "\(server.base)/admin/releases/4")
        let pages = try #require(created["installPages"] as? [[String: Any]])
        #expect(pages.map { $0["tester"] as? String } == ["Ann Lee"], "offered to group qa only")
        let url = try #require(pages.first?["url"] as? String)
        #expect(url == "\(server.base)/t/\(fixture.web.annToken)/releases/4")
        let page = try await server.fetch(url, ["-A", WebFixture.iPhone])
        #expect(page.status == 200 && page.text.contains("Fixes the crash on launch"))
        // The API's release is the CLI's, field for field.
        let shown = try await api(server, "GET", "/releases/4", token: fixture.read).object()
        let cli = try #require(try cliJSON(fixture.cli, "show-release", "4", "--json") as? [String: Any])
        var withoutCount = shown
        withoutCount["downloadCount"] = nil
        #expect(try canonical(withoutCount) == (try canonical(cli)))
        let left = try Self.leftovers(fixture)
        #expect(left.isEmpty, "no staging folder or spooled body is left: \(left)")
    }

    @Test func aRefusedBuildGetsEveryReasonTheCLIGivesAt422AndNothingIsPublished() async throws {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let bad = try await api(server, "POST", "/releases", token: fixture.write, ["-F", "ipa=@\(Self.app("BetaBadEntitlements.ipa"))"])
        let problem = try bad.problem(422, "build-refused")
        let reasons = (problem["errors"] as? [[String: Any]] ?? []).compactMap { $0["detail"] as? String }
        let expected = try cliRefusals(fixture.cli, "release", Self.app("BetaBadEntitlements.ipa"))
        #expect(reasons.count == 6 && reasons == expected, "API \(reasons)\nCLI \(expected)")

        let repeated = try await api(server, "POST", "/releases", token: fixture.write, ["-F", "ipa=@\(Self.app("Beta.ipa"))"])
        let repeatProblem = try repeated.problem(409, "already-released")
        #expect(repeatProblem["releaseId"] as? Int == 1)
        #expect((repeatProblem["detail"] as? String)?.contains("send again=true") == true)

        try await api(server, "POST", "/releases", token: fixture.write, ["-F", "notes=no build"]).problem(422, "missing-field")
        try await api(server, "POST", "/releases", token: fixture.write,
                      ["-F", "ipa=@\(Self.app("Beta.ipa"))", "-F", "xcarchive=@\(Self.app("Beta.xcarchive.zip"))"]).problem(400, "invalid-multipart")
        try await api(server, "POST", "/releases", token: fixture.write,
                      ["-F", "ipa=@\(Self.app("Beta.ipa"))", "-F", "groups=qa"]).problem(400, "invalid-multipart")
        try await api(server, "POST", "/releases", token: fixture.write, json: "{}").problem(415, "unsupported-media-type")
        try await api(server, "POST", "/releases", token: fixture.write,
                      ["-F", "ipa=@\(Self.app("Beta.ipa"))", "-F", "again=maybe"]).problem(400, "invalid-multipart")
        let garbage = try TemporaryDirectory("garbage")
        // Notes with a NUL would be stored cut short: refused (curl sends a file's content as a field with <).
        try Data("First line\u{0}hidden".utf8).write(to: URL(fileURLWithPath: garbage.child("notes.txt")))
        let nul = try await api(server, "POST", "/releases", token: fixture.write,
                                ["-F", "ipa=@\(Self.app("Beta.ipa"))", "-F", "notes=<\(garbage.child("notes.txt"))", "-F", "again=true"])
        #expect(try nul.problem(400, "invalid-multipart")["detail"] as? String == "the field notes contains a NUL character, which would cut it short; send it without")
        try Data("not a zip at all".utf8).write(to: URL(fileURLWithPath: garbage.child("Broken.ipa")))
        let unreadable = try await api(server, "POST", "/releases", token: fixture.write, ["-F", "ipa=@\(garbage.child("Broken.ipa"))"])
        let unreadableDetail = try unreadable.problem(422, "unreadable-build")["detail"] as? String ?? ""
        #expect(unreadableDetail.hasPrefix("Broken.ipa"), "the message names the upload, not a server path: \(unreadableDetail)")
        #expect(!unreadableDetail.contains(fixture.cli.home))
        // A body cut short is a multipart error, not a release.
        let truncated = try await api(server, "POST", "/releases", token: fixture.write,
                                      ["-H", "Content-Type: multipart/form-data; boundary=XyZ", "--data-binary", "--XyZ\r\nContent-Disposition: form-data; name=\"notes\"\r\n\r\nhi"])
        try truncated.problem(400, "invalid-multipart")

        #expect(try fixture.cli.ok("releases").split(separator: "\n").count == 4, "still the three releases (and the header)")
        let left = try Self.leftovers(fixture)
        #expect(left.isEmpty, "nothing half-written: \(left)")
        withExtendedLifetime(garbage) {}
    }

    @Test func releasesAreListedNewestFirstPagedAndRevoked() async throws {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let archive = try await api(server, "POST", "/releases", token: fixture.write,
                                    ["-F", "xcarchive=@\(Self.app("Beta.xcarchive.zip"))", "-F", "again=true", "-F", "group=qa, design"])
        #expect(archive.status == 201, "\(archive.text)")
        let created = try #require(try archive.object()["release"] as? [String: Any])
        #expect(created["source"] as? String == "Beta.xcarchive.zip" && created["groups"] as? [String] == ["design", "qa"])
        let first = try await api(server, "GET", "/releases?limit=2", token: fixture.read).object()
        #expect((first["releases"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [4, 3])
        let cursor = try #require(first["nextCursor"] as? String)
        let second = try await api(server, "GET", "/releases?limit=2&cursor=\(cursor)", token: fixture.read).object()
        #expect((second["releases"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [2, 1])
        #expect(second["nextCursor"] == nil)
        #expect((second["releases"] as? [[String: Any]])?.allSatisfy { $0["downloadCount"] as? Int == 0 } == true)

        let revoked = try await api(server, "POST", "/releases/2/revoke", token: fixture.write).object()
        #expect(revoked["revoked"] as? String != nil)
        try await api(server, "POST", "/releases/2/revoke", token: fixture.write).problem(409, "already-revoked")
        try await api(server, "POST", "/releases/99/revoke", token: fixture.write).problem(404, "release-not-found")
        let page = try await server.fetch("\(server.base)/t/\(fixture.web.annToken)/releases/2")
        #expect(page.status == 410, "testers see the withdrawal at once")
    }

    @Test func symbolsArriveLaterAndTheMissingListEmpties() async throws {
        let directory = try TemporaryDirectory("symbols")
        let cli = Betactl(home: directory.child("home"))
        try cli.ok("init", "--team-id", "ABCDE12345")
        let token = try AdminFixture.token(cli, "ci", "write")
        let server = try InProcessServer(homePath: cli.home)
        defer { server.stop() }
        // Without its own dSYMs the build is refused as `release` refuses it in a home like this one.
        let unsymbolicated = try await api(server, "POST", "/releases", token: token,
                                           ["-F", "ipa=@\(Self.app("Beta.ipa"))", "-F", "dsym=@\(Self.app("Beta-rebuilt.app.dSYM.zip"))"])
        let missingReasons = (try unsymbolicated.problem(422, "build-refused")["errors"] as? [[String: Any]])?.compactMap { $0["detail"] as? String }
        let twin = try TemporaryDirectory("twin")
        let other = Betactl(home: twin.child("home"))
        try other.ok("init")
        let otherResult = try other.run("release", Self.app("Beta.ipa"), "--dsym", Self.app("Beta-rebuilt.app.dSYM.zip"))
        let otherReasons = otherResult.stderr.split(separator: "\n").filter { $0.hasPrefix("  - ") }.map {
            String($0.dropFirst(4)).replacingOccurrences(of: "pass the build's dSYMs with --dsym", with: "send the build's dSYMs as dsym parts")
                .replacingOccurrences(of: "--allow-missing-symbols", with: "allowMissingSymbols=true")
        }
        #expect(missingReasons == otherReasons && otherReasons.first?.hasPrefix("no dSYM matches 3 executable slices") == true, "\(otherResult.stderr)")
        let released = try await api(server, "POST", "/releases", token: token,
                                     ["-F", "ipa=@\(Self.app("Beta.ipa"))", "-F", "allowMissingSymbols=true"])
        #expect(released.status == 201, "\(released.text)")
        #expect((try released.object()["warnings"] as? [String])?.contains { $0.contains("released without symbols") } == true)
        let missing = try await api(server, "GET", "/symbols/missing", token: token).object()
        #expect((missing["missing"] as? [[String: Any]])?.count == 3)
        let added = try await api(server, "POST", "/symbols", token: token,
                                  ["-F", "dsym=@\(Self.app("Beta.app.dSYM.zip"))", "-F", "dsym=@\(Self.app("BetaWidget.appex.dSYM.zip"))"])
        let result = try added.object()
        #expect((result["added"] as? [[String: Any]])?.count == 3 && result["releases"] as? [Int] == [1], "\(added.text)")
        #expect((try await api(server, "GET", "/symbols/missing", token: token).object()["missing"] as? [[String: Any]])?.isEmpty == true)
        let again = try await api(server, "POST", "/symbols", token: token, ["-F", "dsym=@\(Self.app("Beta.app.dSYM.zip"))"]).object()
        #expect((again["alreadyPresent"] as? [[String: Any]])?.count == 2 && (again["added"] as? [Any])?.isEmpty == true)
        let listed = try await api(server, "GET", "/symbols", token: token).object()
        let cliSymbols = try #require((try cliJSON(cli, "symbols", "--json") as? [String: Any])?["symbols"] as? [[String: Any]])
        let apiUUIDs = Set((listed["symbols"] as? [[String: Any]] ?? []).compactMap { $0["uuid"] as? String })
        #expect(apiUUIDs == Set(cliSymbols.compactMap { $0["uuid"] as? String }) && apiUUIDs.count == 3)
        try await api(server, "POST", "/symbols", token: token, ["-F", "dsym=@\(Self.app("Beta.ipa"))"]).problem(422, "no-symbols")
        try await api(server, "POST", "/symbols", token: token, ["-F", "notes=x"]).problem(400, "invalid-multipart")
        withExtendedLifetime((directory, twin)) {}
    }

    @Test func profilesAreUploadedAndCheckedAgainstTheRosterLikeTheCLIDoes() async throws {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let development = LocalFixtures.url("formats/profiles/beta_development.mobileprovision").path
        let raw = try await api(server, "POST", "/profiles", token: fixture.write,
                                ["-H", "Content-Type: application/octet-stream", "--data-binary", "@\(development)"])
        #expect(raw.status == 201, "\(raw.text)")
        let uuid = try #require((try raw.object()["profile"] as? [String: Any])?["uuid"] as? String)
        let form = try await api(server, "POST", "/profiles", token: fixture.write, ["-F", "profile=@\(development)"])
        let formAnswer = try form.object()
        #expect(form.status == 200 && formAnswer["isNew"] as? Bool == false)
        let listed = try await api(server, "GET", "/profiles", token: fixture.read).object()
        let cliProfiles = try #require(try cliJSON(fixture.cli, "profiles", "--json") as? [[String: Any]])
        #expect((listed["profiles"] as? [[String: Any]])?.count == cliProfiles.count)
        let adhoc = try #require(cliProfiles.first { $0["type"] as? String == "ad-hoc" }?["uuid"] as? String)
        let check = try await api(server, "GET", "/profiles/\(adhoc)/check", token: fixture.read).object()
        let cliCheck = try #require(try cliJSON(fixture.cli, "check-profile", adhoc, "--json") as? [String: Any])
        #expect(try canonical(check) == (try canonical(cliCheck)))
        #expect((check["missingDevices"] as? [[String: Any]])?.map { $0["udid"] as? String } == ["00008110-0000000000000D04"])
        #expect((try await api(server, "GET", "/profiles/\(uuid)", token: fixture.read).object())["type"] as? String == "development")

        let damaged = try TemporaryDirectory("damaged")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: development))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: damaged.child("half.mobileprovision")))
        let cli = try fixture.cli.run("import-profile", damaged.child("half.mobileprovision"))
        let refused = try await api(server, "POST", "/profiles", token: fixture.write, ["-F", "profile=@\(damaged.child("half.mobileprovision"))"])
        let detail = try refused.problem(422, "invalid-profile")["detail"] as? String ?? ""
        #expect(cli.stderr.contains(detail.replacingOccurrences(of: "the provisioning profile cannot be read: ", with: "")), "\(cli.stderr) vs \(detail)")
        try await api(server, "GET", "/profiles/nosuch", token: fixture.read).problem(404, "profile-not-found")
        try await api(server, "POST", "/profiles", token: fixture.write, ["-F", "notprofile=@\(development)"]).problem(422, "missing-field")
        withExtendedLifetime(damaged) {}
    }

    @Test func settingsAndTokensNeedTheAdminScope() async throws {
        let fixture = try await AdminFixture.make()
        let server = try fixture.inProcess()
        defer { server.stop() }
        let settings = try await api(server, "GET", "/settings", token: fixture.read).object()
        #expect(settings["teamId"] as? String == "ABCDE12345" && settings["brandName"] as? String == "Beta")
        let changed = try await api(server, "PATCH", "/settings", token: fixture.admin,
                                    json: ##"{"brandName": "Acme Beta", "brandColor": "#f60", "membershipRenewal": "2027-03-01"}"##).object()
        #expect(changed["brandName"] as? String == "Acme Beta" && changed["brandColor"] as? String == "#ff6600")
        #expect((changed["membershipYear"] as? [String: Any])?["renews"] as? String == "2027-03-01")
        #expect(try await server.fetch("\(server.base)/t/\(fixture.web.annToken)").text.contains("Acme Beta"), "pages follow at once")
        let cli = try fixture.cli.run("init", "--brand-color", "orange")
        let bad = try await api(server, "PATCH", "/settings", token: fixture.admin, json: #"{"brandColor": "orange"}"#)
        #expect("error: \(try bad.problem(422, "invalid-settings")["detail"] as? String ?? "")\n" == cli.stderr)
        try await api(server, "PATCH", "/settings", token: fixture.admin, json: #"{"membershipRenewal": "2027-02-30"}"#).problem(422, "invalid-settings")

        let made = try await api(server, "POST", "/tokens", token: fixture.admin, json: #"{"name": "deploy", "scope": "write"}"#)
        #expect(made.status == 201 && made.headers["location"] == "/api/v1/tokens/deploy")
        let secret = try #require(try made.object()["secret"] as? String)
        #expect(try await api(server, "GET", "/testers", token: secret).status == 200)
        let listed = try await api(server, "GET", "/tokens", token: fixture.admin).object()
        #expect((listed["tokens"] as? [[String: Any]])?.compactMap { $0["name"] as? String }.sorted() == ["ci", "deploy", "reader", "root"])
        let relisted = try await api(server, "GET", "/tokens", token: fixture.admin)
        #expect(!relisted.text.contains(secret), "a secret is shown once, never listed")
        try await api(server, "POST", "/tokens", token: fixture.admin, json: #"{"name": "deploy"}"#).problem(409, "token-name-taken")
        try await api(server, "POST", "/tokens", token: fixture.admin, json: #"{"name": "bad name!"}"#).problem(422, "invalid-token")
        try await api(server, "POST", "/tokens", token: fixture.admin, json: #"{"name": "x", "scope": "root"}"#).problem(422, "invalid-token")
        let revoked = try await api(server, "DELETE", "/tokens/deploy", token: fixture.admin).object()
        #expect(revoked["revoked"] as? String != nil)
        try await api(server, "GET", "/testers", token: secret).problem(401, "unauthorized")
        try await api(server, "DELETE", "/tokens/deploy", token: fixture.admin).problem(404, "token-not-found")
    }
}

/// JSON text with sorted keys, for comparing documents and seeing the difference when they differ.
func canonical(_ object: Any) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted]), as: UTF8.self)
}
