#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import CryptoCMS

extension Provisioner {
    /// `refresh-apps`: one batch. Plans which releases to re-sign, regenerates each app's profiles
    /// (the name stamp is recorded before Apple is asked, so a resumed run adopts what Apple made),
    /// re-signs and publishes each release superseding its original (a resumed run adopts a release
    /// already published with the new profile), then marks the devices ready.
    func refresh(_ job: Job) throws {
        var batch = try ProvisioningPayload.decode(ProvisioningPayload.Batch.self, job.payload, job: job.id)
        let archive = Archive(home: home)
        if batch.releases == nil {
            batch.releases = try plan(batch.udids)
            try checkpoint(job, step: "profiles", payload: batch.json)
        }
        let planned = try (batch.releases ?? []).map { try archive.release(id: $0) }
        let signer = planned.isEmpty ? nil : try codeSigner(job: job)
        let account = AppleAccount(home: home)
        for bundleID in Self.unique(planned.map(\.bundleID)) where batch.profiles[bundleID] == nil {
            if batch.stamps[bundleID] == nil {
                batch.stamps[bundleID] = AppleAccount.minuteStamp(clock()) + " job \(job.id)"
                try checkpoint(job, step: "profiles", payload: batch.json)
            }
            let made = try account.regenerateProfiles(for: bundleID, certificate: nil, client: try client(), now: clock(), stamp: batch.stamps[bundleID])
            guard made.profiles.contains(where: { $0.bundleID == bundleID }) else {
                throw ProvisioningFailure.permanent("Apple made no profile for \(bundleID); check its bundle id in Certificates, Identifiers & Profiles")
            }
            batch.profiles[bundleID] = Dictionary(made.profiles.map { ($0.bundleID, $0.uuid) }, uniquingKeysWith: { _, last in last })
            try checkpoint(job, step: "profiles", payload: batch.json)
        }
        if !planned.isEmpty { try checkpoint(job, step: "resign", payload: batch.json) }
        for original in planned where batch.resigned[String(original.id)] == nil {
            guard let profiles = batch.profiles[original.bundleID], let uuid = profiles[original.bundleID], let signer else { continue }
            let taken = Set(batch.resigned.values)
            if let existing = try archive.releases(includeRevoked: false).first(where: { Self.isResign(of: original, profile: uuid, $0) && !taken.contains($0.id) }) {
                // Published by a run killed before it recorded it: link it, do not sign again.
                try home.store.write { db in try Archive.linkResign(existing.id, from: original.id, supersedes: true, db: db) }
                batch.resigned[String(original.id)] = existing.id
            } else {
                var nested: [String: [UInt8]] = [:]
                for (bundleID, nestedUUID) in profiles where bundleID != original.bundleID {
                    nested[bundleID] = try archive.profileBytes(matching: nestedUUID)
                }
                let result = try archive.resign(releaseID: original.id, profileBytes: try archive.profileBytes(matching: uuid), signer: signer,
                                                notes: nil, devices: try Roster(home: home).devices(includeRemoved: false), now: clock(),
                                                supersedes: true, nestedProfileBytes: nested)
                pause(at: "published")
                batch.resigned[String(original.id)] = result.release.id
            }
            try checkpoint(job, step: "resign", payload: batch.json)
        }
        let ready = try batch.resigned.values.sorted().map { try archive.release(id: $0) }
        let now = clock()
        try home.store.write { db in
            guard try JobQueue.isStillMine(job.id, db: db) else { throw JobCancelled() }
            try JobQueue.succeed(job.id, step: "ready", payload: batch.json, db: db, now: now)
            for udid in batch.udids {
                try Self.announceReady(udid, releases: ready, db: db, now: now)
            }
        }
    }

    /// The releases to re-sign: for each tester owning a device of the batch, the newest release of
    /// each app offered to them (not revoked, not superseded); each release once.
    func plan(_ udids: [String]) throws -> [Int64] {
        let devices = try Roster(home: home).devices(includeRemoved: false)
        let wanted = Set(udids.map { $0.uppercased() })
        let owners = Set(devices.filter { wanted.contains($0.identifier.value.uppercased()) }.compactMap(\.testerID))
        let testers = try Roster(home: home).testers().filter { owners.contains($0.id) }
        let releases = try Archive(home: home).releases(includeRevoked: false).filter { $0.supersededBy == nil }
        var chosen: [Int64] = []
        for tester in testers {
            var newest: [String: Release] = [:]
            for release in releases where release.isOffered(to: tester) {
                if let current = newest[release.bundleID], current.id > release.id { continue }
                newest[release.bundleID] = release
            }
            for release in newest.values where !chosen.contains(release.id) { chosen.append(release.id) }
        }
        return chosen.sorted()
    }

    /// The code-signing identity as a signer; a permanent failure naming the fix when there is none,
    /// it expired, or it cannot be used.
    func codeSigner(job: Job) throws -> LibcryptoCodeSigner {
        guard let stored = try CodeIdentityStore(home: home).current() else {
            throw ProvisioningFailure.permanent("no code-signing identity is stored, so builds cannot be re-signed; import the Apple Distribution .p12 with `betactl code-identity import DIST.p12 --password-file F`")
        }
        guard stored.expiresAt > clock() else {
            throw ProvisioningFailure.permanent("the code-signing identity's certificate \"\(stored.subject)\" expired on \(CalendarDate(stored.expiresAt)); import a current Apple Distribution identity with `betactl code-identity import`")
        }
        do {
            let identity = try CMSSigningIdentity(certificates: Array(stored.certificatePEM.utf8), privateKey: Array(stored.privateKeyPEM.utf8))
            return try LibcryptoCodeSigner(identity: identity)
        } catch {
            throw ProvisioningFailure.permanent("the stored code-signing identity cannot be used (\(error)); import it again with `betactl code-identity import`")
        }
    }

    /// `device.ready` for one device of a finished batch, naming the builds it can now install.
    static func announceReady(_ udid: String, releases: [Release], db: SQLiteConnection, now: Date) throws {
        let row = try db.queryOne("SELECT name, family, tester_id FROM devices WHERE udid = ? COLLATE NOCASE", [.text(udid)])
        let builds = releases.map { release in
            WebhookData.object([("id", .int(release.id)), ("bundle_id", .string(release.bundleID)), ("version", .optional(release.version)),
                                ("build", .optional(release.build)), ("resigned_from", .optional(release.resignedFrom))])
        }
        try WebhookOutbox.device(.deviceReady, udid: udid, name: row?.string(0), family: row?.string(1), testerID: row?.int(2), db: db, now: now,
                                 extra: [("releases", .array(builds))])
    }

    /// Whether `candidate` is `original` re-signed with profile `uuid` (the same app, version, build and groups).
    static func isResign(of original: Release, profile uuid: String, _ candidate: Release) -> Bool {
        guard candidate.id > original.id, candidate.bundleID == original.bundleID, candidate.groups == original.groups else { return false }
        guard candidate.version == original.version, candidate.build == original.build else { return false }
        return candidate.profileUUID?.uppercased() == uuid.uppercased()
    }

    static func unique(_ values: [String]) -> [String] {
        var seen: [String] = []
        for value in values where !seen.contains(value) { seen.append(value) }
        return seen
    }
}
