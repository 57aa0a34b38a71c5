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

extension WebActions {
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
        let groups = try upload.texts("group").flatMap { WebActions.groupList($0) }
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
            throw WebActions.uploadWording(error, upload: upload)
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
            warnings: result.validation.warnings.map { upload.clientWording(WebActions.apiWording($0.description)) },
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

    /// Receives dSYM zips and archives them (the API's and the dashboard's upload).
    /// `check` runs once the form is parsed, before anything is archived (the dashboard's CSRF check).
    func uploadSymbols(_ request: Request, extraFields: Set<String>,
                       check: (ReleaseUpload) throws -> Void = { _ in }) async throws -> AdminJSON.SymbolUploadJSON {
        let home = self.home
        let now = self.now
        let limit = configuration.maxUploadBytes
        let upload = try await pool.run {
            try ReleaseUpload.receive(request, fields: ReleaseUpload.Fields.symbols.adding(texts: extraFields), archive: Archive(home: home), maxBytes: limit)
        }
        try check(upload)
        let files = upload.files("dsym")
        guard !files.isEmpty else {
            throw APIProblem(.missingField, "the upload has no dsym part; send each zipped .dSYM as -F dsym=@App.app.dSYM.zip")
        }
        let result: AddSymbolsResult
        do {
            result = try await pool.run { try Archive(home: home).addSymbols(paths: files.map(\.path), now: now) }
        } catch {
            throw WebActions.uploadWording(error, upload: upload)
        }
        snapshots.invalidate()
        return AdminJSON.SymbolUploadJSON(added: result.added.map(AdminJSON.key), alreadyPresent: result.alreadyPresent.map(AdminJSON.key),
                                          replaced: result.replaced.map { AdminJSON.key($0.key) }, releases: result.releaseIDs)
    }
}
