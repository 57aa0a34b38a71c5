#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer
import CryptoCMS
import BetaJSON

/// `POST /api/v1/releases/{id}/resign`'s body.
struct ResignBody: APIRequestBody {
    var profile: String
    var notes: String?
    static let fields = ["profile", "notes"]
}

extension APIController {
    /// Re-signing a release with another imported profile, as `betactl resign` does.
    var resignOperations: [APIOperation] {
        [
            APIOperation(method: .post, path: "/releases/:id/resign", scope: .write, operationID: "resignRelease", tag: "Releases",
                         summary: "Re-sign a release with another imported profile and the code-signing identity, and publish it as a new release that names the original and keeps its notes, groups and dSYMs (as `betactl resign`).",
                         body: .init(mediaType: "application/json", schema: .ref("ResignRequest"), description: "The new profile and, optionally, notes."),
                         outcomes: [.init(status: 201, description: "The re-signed release was published.", schema: .ref("Release"))]) { [self] call in
                let id = try Self.releaseID(call.request)
                let body = try call.request.apiBody(ResignBody.self)
                let home = self.home
                let now = self.now
                let json = try await pool.run {
                    let archive = Archive(home: home)
                    let profileBytes = try archive.profileBytes(matching: body.profile)
                    let signer = try WebActions.codeSigner(home: home)
                    let devices = try Roster(home: home).devices(includeRemoved: false)
                    let result = try archive.resign(releaseID: id, profileBytes: profileBytes, signer: signer, notes: body.notes, devices: devices, now: now)
                    return ArchiveJSON.release(result.release, testers: try Roster(home: home).testers())
                }
                snapshots.invalidate()
                return try Response.api(json, status: .created, location: "\(APIPaths.prefix)/releases/\(json.id)")
            },
        ]
    }
}
