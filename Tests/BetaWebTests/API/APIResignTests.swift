import Foundation
import Testing
import TestSupport

/// `POST /api/v1/releases/{id}/resign`: what `betactl resign` does, through the API.
@Suite(.serialized, .enabled(if: OpenSSLTool.available)) struct APIResignTests {
    @Test func aReleaseIsReSignedWithAnImportedProfileAndPublishedAsANewRelease() async throws {
        let fixture = try await AdminFixture.make()
        let work = try TemporaryDirectory()
        try ResigningFixtures.make(in: work)
        let server = try fixture.inProcess()
        defer { server.stop() }

        try fixture.cli.ok("import-profile", work.child("new.mobileprovision"))
        let body = #"{"profile": "\#(ResigningFixtures.profileName)", "notes": "Now for Bob's phone too"}"#
        let noIdentity = try await api(server, "POST", "/releases/1/resign", token: fixture.write, json: body)
        #expect(noIdentity.text.contains("no code-signing identity is stored"), "\(noIdentity.text)")
        #expect(noIdentity.status >= 400 && noIdentity.status < 500)

        try fixture.cli.ok("code-identity", "import", work.child("cert.pem"), work.child("key.pem"))
        try await api(server, "POST", "/releases/1/resign", token: fixture.read, json: body).problem(403, "insufficient-scope")
        let answer = try await api(server, "POST", "/releases/1/resign", token: fixture.write, json: body)
        #expect(answer.status == 201, "\(answer.text)")
        let release = try answer.object()
        let id = try #require(release["id"] as? Int)
        #expect(answer.headers["location"] == "/api/v1/releases/\(id)")
        #expect(release["profile"] as? String == ResigningFixtures.profileName)
        #expect(release["notes"] as? String == "Now for Bob's phone too")
        #expect(release["resignedFrom"] as? Int == 1, "the answer names the original release")
        #expect(try await api(server, "GET", "/releases/\(id)", token: fixture.read).object()["resignedFrom"] as? Int == 1)
        #expect(try await api(server, "GET", "/releases/1", token: fixture.read).object()["resignedFrom"] == nil)
        #expect(try fixture.cli.ok("show-release", String(id)).contains("re-signed     from release 1"))
        try await api(server, "POST", "/releases/99/resign", token: fixture.write, json: body).problem(404, "release-not-found")
        try await api(server, "POST", "/releases/1/resign", token: fixture.write, json: #"{"profil": "x"}"#).problem(400, "invalid-json")
    }
}
