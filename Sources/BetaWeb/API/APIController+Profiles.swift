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
    /// Profiles: upload a .mobileprovision, list, show, check against the roster.
    var profileOperations: [APIOperation] {
        [
            APIOperation(method: .get, path: "/profiles", scope: .read, operationID: "listProfiles", tag: "Profiles",
                         summary: "Imported provisioning profiles, the one that expires last first.",
                         parameters: APIOperation.pagingParameters,
                         outcomes: [.init(status: 200, description: "A page of profiles.", schema: .ref("ProfileList"))]) { [self] call in
                let home = self.home
                let profiles = try await pool.run { try Archive(home: home).profiles() }
                // The one that expires last first; the UUID breaks ties, so the cursor's key is unique.
                func key(_ profile: StoredProfile) -> PageKey { PageKey(number: -Int64(profile.expiresAt.timeIntervalSince1970), text: profile.uuid) }
                let page = try Page(profiles.sorted { key($0) < key($1) }, request: call.request, key: key)
                var response = try Response.api(AdminJSON.ProfileListJSON(profiles: page.items.map(ArchiveJSON.profile),
                                                                          nextCursor: page.nextCursor))
                if let link = page.linkHeader(call.request) { response.headers.set("Link", link) }
                return response
            },
            APIOperation(method: .post, path: "/profiles", scope: .write, operationID: "uploadProfile", tag: "Profiles",
                         summary: "Import a .mobileprovision (DER or BER), sent as the body or as the multipart part `profile`; one with the same UUID is replaced.",
                         body: .init(mediaType: "application/octet-stream", schema: .string(format: "binary"),
                                     description: "The .mobileprovision file (or multipart/form-data with the part `profile`)."),
                         outcomes: [
                            .init(status: 201, description: "The profile was imported.", schema: .ref("ProfileImport")),
                            .init(status: 200, description: "A profile with the same UUID was replaced.", schema: .ref("ProfileImport")),
                         ],
                         bodyLimit: WebActions.profileLimit, checksTokenBeforeBody: true) { [self] call in
                let bytes = try await profileBytes(call.request)
                let home = self.home
                let now = self.now
                let imported = try await pool.run { try Archive(home: home).importProfile(bytes: bytes, now: now) }
                snapshots.invalidate()
                let stored = try await pool.run { try Archive(home: home).storedProfile(matching: imported.profile.uuid) }
                return try Response.api(AdminJSON.ProfileImportJSON(profile: ArchiveJSON.profile(stored), isNew: imported.isNew),
                                        status: imported.isNew ? .created : .ok, location: "\(APIPaths.prefix)/profiles/\(stored.uuid)")
            },
            APIOperation(method: .get, path: "/profiles/:uuid", scope: .read, operationID: "getProfile", tag: "Profiles",
                         summary: "One imported profile, by UUID (or a unique UUID prefix or exact name).",
                         outcomes: [.init(status: 200, description: "The profile.", schema: .ref("Profile"))]) { [self] call in
                let reference = try call.request.parameters.require("uuid")
                let home = self.home
                let stored = try await pool.run { try Archive(home: home).storedProfile(matching: reference) }
                return try Response.api(ArchiveJSON.profile(stored))
            },
            APIOperation(method: .get, path: "/profiles/:uuid/check", scope: .read, operationID: "checkProfile", tag: "Profiles",
                         summary: "Compare a profile with the roster: active devices it lacks (by tester), unknown or removed devices in it, expiry and certificates.",
                         outcomes: [.init(status: 200, description: "What the check found; `ok` is false when something needs fixing.",
                                          schema: .ref("ProfileCheck"))]) { [self] call in
                let reference = try call.request.parameters.require("uuid")
                let home = self.home
                let now = self.now
                let json = try await pool.run {
                    let archive = Archive(home: home)
                    let stored = try archive.storedProfile(matching: reference)
                    let profile = try archive.profile(matching: stored.uuid)
                    let report = ProfileRosterCheck.check(profile: profile, devices: try Roster(home: home).devices(includeRemoved: true), now: now)
                    return ArchiveJSON.check(report, stored: stored)
                }
                return try Response.api(json)
            },
        ]
    }

    /// The profile's bytes: the body itself, or the multipart part `profile`.
    func profileBytes(_ request: Request) async throws -> [UInt8] {
        let type = request.headers["Content-Type"] ?? ""
        guard type.lowercased().hasPrefix("multipart/") else { return try request.body.bytes(limit: WebActions.profileLimit) }
        let directory = home.temporaryPath
        let parts = try await pool.run {
            try FormParts.parse(request, limits: WebActions.profileFormLimits, spoolDirectory: directory)
        }
        guard let part = parts.first(named: "profile") else {
            throw APIProblem(.missingField, "the multipart body has no part named profile; send the .mobileprovision as -F profile=@FILE")
        }
        return try part.value.readAll()
    }
}
