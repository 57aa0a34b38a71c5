#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer
import Multipart
import BetaJSON

extension APIController {
    /// Releases: list, show, revoke, and create from a streamed upload.
    var releaseOperations: [APIOperation] {
        [
            APIOperation(method: .get, path: "/releases", scope: .read, operationID: "listReleases", tag: "Releases",
                         summary: "Every release, newest first, with who it is offered to and how many downloads completed.",
                         parameters: APIOperation.pagingParameters,
                         outcomes: [.init(status: 200, description: "A page of releases.", schema: .ref("ReleaseList"))]) { [self] call in
                let home = self.home
                let (releases, testers, counts) = try await pool.run {
                    (try Archive(home: home).releases(), try Roster(home: home).testers(), try Archive(home: home).downloadCounts())
                }
                let page = try Page(releases, request: call.request) { PageKey(number: -$0.id) }
                var response = try Response.api(AdminJSON.ReleaseListJSON(releases: page.items.map { release in
                    var json = ArchiveJSON.release(release, testers: testers)
                    json.downloadCount = counts[release.id] ?? 0
                    return json
                }, nextCursor: page.nextCursor))
                if let link = page.linkHeader(call.request) { response.headers.set("Link", link) }
                return response
            },
            APIOperation(method: .post, path: "/releases", scope: .write, operationID: "createRelease", tag: "Releases",
                         summary: "Upload and publish a build: the part `ipa` (or `xcarchive`, a zipped .xcarchive), any number of `dsym` parts (zipped .dSYMs), `notes` and `group`. The build streams to disk as it arrives; validation is the CLI's, every refusal listed at once (422 `build-refused`).",
                         body: .init(mediaType: "multipart/form-data", schema: .ref("ReleaseUpload"), description: "The build, its dSYMs and the release's options."),
                         outcomes: [.init(status: 201, description: "The release was published.", schema: .ref("CreatedRelease"))],
                         bodyLimit: configuration.maxUploadBytes, checksTokenBeforeBody: true) { [self] call in
                let created = try await actions.createRelease(call.request, extraFields: [])
                return try Response.api(created, status: .created, location: "\(APIPaths.prefix)/releases/\(created.release.id)")
            },
            APIOperation(method: .get, path: "/releases/:id", scope: .read, operationID: "getRelease", tag: "Releases",
                         summary: "One release with its executables, whether their symbols are archived, and its completed downloads.",
                         outcomes: [.init(status: 200, description: "The release.", schema: .ref("Release"))]) { [self] call in
                let id = try Self.releaseID(call.request)
                let home = self.home
                let json = try await pool.run {
                    let archive = Archive(home: home)
                    var json = ArchiveJSON.release(try archive.release(id: id), testers: try Roster(home: home).testers(),
                                                   slices: try archive.slices(ofRelease: id), downloads: try archive.downloads(ofRelease: id))
                    json.downloadCount = json.downloads?.count
                    return json
                }
                return try Response.api(json)
            },
            APIOperation(method: .post, path: "/releases/:id/revoke", scope: .write, operationID: "revokeRelease", tag: "Releases",
                         summary: "Hide a release from testers (a revoked release answers 410 on their pages); its symbols are kept.",
                         outcomes: [.init(status: 200, description: "The release, now revoked.", schema: .ref("Release"))]) { [self] call in
                let id = try Self.releaseID(call.request)
                let home = self.home
                let now = self.now
                let json = try await pool.run {
                    ArchiveJSON.release(try Archive(home: home).revoke(id: id, now: now), testers: try Roster(home: home).testers())
                }
                snapshots.invalidate()
                return try Response.api(json)
            },
        ]
    }

    /// The release id in the path.
    static func releaseID(_ request: Request) throws(APIProblem) -> Int64 {
        guard let id = try? request.parameters.require("id", as: Int64.self), id > 0 else {
            let text = request.parameters["id"] ?? ""
            throw APIProblem(.releaseNotFound, ArchiveError.unknownRelease(String(text.prefix(40))).description)
        }
        return id
    }
}
