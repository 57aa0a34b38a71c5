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

extension BetaWebApplication {
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
                let created = try await createRelease(call.request, extraFields: [])
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

    /// Receives a release upload and publishes it (the API's and the dashboard's upload).
    /// `check` runs once the form is parsed, before anything is published (the dashboard's CSRF check).
    func createRelease(_ request: Request, extraFields: Set<String>,
                       check: (ReleaseUpload) throws -> Void = { _ in }) async throws -> AdminJSON.CreatedReleaseJSON {
        let home = self.home
        let now = self.now
        let limit = configuration.maxUploadBytes
        let upload = try await pool.run {
            try ReleaseUpload.receive(request, fields: ReleaseUpload.Fields.release.adding(texts: extraFields), archive: Archive(home: home),
                                      maxBytes: limit)
        }
        try check(upload)
        let builds = upload.files("ipa") + upload.files("xcarchive")
        guard let build = builds.first else {
            throw APIProblem(.missingField, "the upload has no build: send the .ipa as the part ipa (-F ipa=@App.ipa), or a zipped .xcarchive as the part xcarchive")
        }
        guard builds.count == 1 else {
            throw APIProblem(.invalidMultipart, "the upload has \(builds.count) builds; send one ipa or xcarchive part per release")
        }
        var policy = ReleasePolicy(allowMissingSymbols: try upload.flag("allowMissingSymbols"), allowUnsigned: try upload.flag("allowUnsigned"))
        for name in try upload.texts("allowProfileType") {
            guard let type = ProfileType(rawValue: name), type == .development || type == .enterprise else {
                throw APIProblem(.invalidMultipart, "allowProfileType takes development or enterprise, not \"\(String(name.prefix(40)))\" (App Store builds cannot be installed directly)")
            }
            policy.allowedProfileTypes.insert(type)
        }
        let again = try upload.flag("again")
        let notes = try upload.text("notes").flatMap { $0.isEmpty ? nil : $0 }
        // Group names cannot hold commas, so "qa, design" in one field (the dashboard's) is two groups.
        let groups = try upload.texts("group").flatMap { Self.groupList($0) }
        var releaseRequest = ReleaseRequest(path: build.path, dsymPaths: upload.files("dsym").map(\.path), notes: notes, groups: groups,
                                            policy: policy, again: again)
        releaseRequest.movesInput = true
        if upload.files("ipa").count == 1 { releaseRequest.inputSHA256 = build.sha256 }
        let finalRequest = releaseRequest
        let result: ReleaseResult
        do {
            result = try await pool.run {
                let archive = Archive(home: try home.reloaded())
                // The package's SHA-256 was computed while it arrived: a build already released is
                // refused before anything is unpacked.
                if !again, upload.files("ipa").count == 1, let earlier = try archive.releases(withPackage: build.sha256).first {
                    throw ArchiveError.alreadyReleased(earlier)
                }
                let devices = try Roster(home: archive.home).devices(includeRemoved: false)
                return try archive.release(finalRequest, devices: devices, now: now)
            }
        } catch {
            throw Self.uploadWording(error, upload: upload)
        }
        snapshots.invalidate()
        let (testers, base) = try await (pool.run { try Roster(home: home).testers() }, snapshots.current().snapshot.settings.publicURL)
        let publicBase = PublicBase(request: request, publicURL: base)
        let release = result.release
        let offered = testers.filter { release.isOffered(to: $0) }
        return AdminJSON.CreatedReleaseJSON(
            release: ArchiveJSON.release(release, testers: testers),
            installPages: offered.map { tester in
                AdminJSON.InstallPageJSON(testerId: tester.id, tester: tester.name,
                                          url: TesterURLs(base: publicBase, token: tester.token).release(release.id))
            },
            dashboard: "\(publicBase.url)/admin/releases/\(release.id)",
            warnings: result.validation.warnings.map { upload.clientWording(Self.apiWording($0.description)) },
            addedSymbols: result.addedSymbols.count, earlierRelease: result.earlierRelease)
    }

    /// An upload's error with server paths replaced by the client's file names and CLI options by
    /// the form's field names.
    static func uploadWording(_ error: any Error, upload: ReleaseUpload) -> any Error {
        guard var problem = APIProblem.from(error) else { return error }
        problem.detail = upload.clientWording(apiWording(problem.detail))
        problem.errors = problem.errors.map { APIProblem.Item(detail: upload.clientWording(apiWording($0.detail))) }
        return problem
    }

    /// The CLI's refusal sentences name its options; an API client sends form fields instead.
    static func apiWording(_ text: String) -> String {
        var result = text
        for (option, field) in [("pass the build's dSYMs with --dsym", "send the build's dSYMs as dsym parts"),
                                ("--allow-missing-symbols", "allowMissingSymbols=true"),
                                ("--allow-unsigned", "allowUnsigned=true"),
                                ("--allow-profile-type ", "allowProfileType="),
                                ("pass --again", "send again=true")] {
            result = result.replacing(option, with: field)
        }
        return result
    }
}
