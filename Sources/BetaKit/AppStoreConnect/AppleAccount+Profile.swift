#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

extension AppleAccount {
    /// The bundle ids an app needs profiles for: the app's, then each extension's and watch app's
    /// found in its newest release (just the app's when it has no release yet).
    public func bundleIDs(forApp bundleID: String) throws -> [String] {
        let archive = Archive(home: home)
        guard let newest = try archive.releases(includeRevoked: false).filter({ $0.bundleID == bundleID }).max(by: { $0.id < $1.id }) else {
            return [bundleID]
        }
        var identifiers = [bundleID]
        for slice in try archive.slices(ofRelease: newest.id) where slice.kind != ExecutableKind.framework.rawValue {
            if let identifier = slice.bundleID, !identifiers.contains(identifier) { identifiers.append(identifier) }
        }
        return identifiers
    }

    /// Regenerates the ad hoc profile of every bundle id the app needs, with every enabled iOS
    /// device in Apple's list: deletes the one betactl made before (profiles cannot be edited),
    /// creates `betactl BUNDLE_ID YYYY-MM-DD HH:MM`, and imports what Apple returns through the
    /// archive's import, so `check-profile` and the tester pages see it at once. `certificate`
    /// picks the distribution certificate by serial number or id; without it, the code-signing
    /// identity's certificate, and without that the team must have exactly one.
    ///
    /// `stamp` replaces the minute in the new profiles' names (`betactl BUNDLE_ID STAMP`); with it, a
    /// profile already named so is adopted instead of deleted and made again, so a run cut short
    /// after Apple made the profile resumes without a second creation.
    public func regenerateProfiles(for bundleID: String, certificate: String?, client: AppStoreConnectClient,
                                   now: Date, stamp: String? = nil) throws -> AppleProfileRegeneration {
        let callsBefore = client.callCount
        let identifiers = try bundleIDs(forApp: bundleID)
        if try !hasSynced() { _ = try sync(client: client, now: now) }

        // One call: the bundle id resources, with their profiles included.
        let response = try client.send("GET", "/v1/bundleIds", query: [("filter[identifier]", identifiers.joined(separator: ",")),
                                                                       ("include", "profiles"), ("limit", "200")])
        let page = try client.decode(ASC.List<ASC.BundleIDAttributes, ASC.ProfileAttributes>.self, response, path: "/v1/bundleIds",
                                     subject: "bundle id \(bundleID)")
        var resources: [(identifier: String, id: String, profiles: [ASC.Resource<ASC.ProfileAttributes>])] = []
        for identifier in identifiers {
            // Apple's filter is not an exact match: compare the identifier here.
            guard let resource = page.data.first(where: { $0.attributes?.identifier == identifier }) else {
                throw AppStoreConnectError.unknownBundleID(identifier)
            }
            let ids = Set(resource.relationships?["profiles"]?.ids ?? [])
            resources.append((identifier, resource.id, (page.included ?? []).filter { ids.contains($0.id) }))
        }
        let identitySerial = certificate == nil ? try codeIdentitySerial() : nil
        let chosen: (id: String, serial: String)
        do {
            chosen = try distributionCertificate(certificate ?? identitySerial, client: client)
        } catch let AppStoreConnectError.certificate(reason) where identitySerial != nil {
            throw AppStoreConnectError.certificate(reason + "; the serial is the code-signing identity's (`betactl code-identity show`): import the identity "
                + "whose certificate the team has, or name one with --certificate SERIAL")
        }
        let deviceIDs = try store.read { db in
            try db.query("""
                SELECT apple_id FROM apple_devices WHERE status = 'ENABLED' AND platform IN ('IOS', 'UNIVERSAL') AND device_class != 'MAC'
                ORDER BY apple_id
                """).compactMap { $0.string(0) }
        }
        var made: [AppleProfileRegeneration.Made] = []
        for resource in resources {
            made.append(try regenerate(resource, certificateID: chosen.id, deviceIDs: deviceIDs, client: client, now: now, stamp: stamp))
        }
        try recordRateLimit(client)
        return AppleProfileRegeneration(bundleID: bundleID, profiles: made, certificateSerial: chosen.serial, calls: client.callCount - callsBefore)
    }

    /// The serial number of the code-signing identity's certificate (`code-identity import`), when
    /// one is stored: the profile must list that certificate, or builds betactl re-signs with it will
    /// not install.
    func codeIdentitySerial() throws -> String? {
        guard let pem = try CodeIdentityStore(home: home).current()?.certificatePEM else { return nil }
        // The first certificate of the PEM: the leaf, as `code-identity import` stores it.
        let lines = pem.split(whereSeparator: \.isNewline).map { String($0).trimmed }
        guard let begin = lines.firstIndex(of: "-----BEGIN CERTIFICATE-----"),
              let end = lines[begin...].firstIndex(of: "-----END CERTIFICATE-----"),
              let der = Data(base64Encoded: lines[(begin + 1) ..< end].joined()),
              let certificate = try? Certificate(der: [UInt8](der)) else { return nil }
        return certificate.serialNumberHex
    }

    /// The distribution certificate to use: by serial or id when given (or the code-signing
    /// identity's), else the team's only one.
    func distributionCertificate(_ wanted: String?, client: AppStoreConnectClient) throws -> (id: String, serial: String) {
        let certificates: [ASC.Resource<ASC.CertificateAttributes>] = try client.list(
            "/v1/certificates", query: [("filter[certificateType]", "DISTRIBUTION,IOS_DISTRIBUTION")], subject: "the certificate list")
        func serial(_ text: String) -> String {
            let hex = text.uppercased().filter { $0 != ":" && $0 != " " }
            let trimmed = hex.drop { $0 == "0" }
            return trimmed.isEmpty ? "0" : String(trimmed)
        }
        let listed = certificates.map { (id: $0.id, serial: $0.attributes?.serialNumber ?? "") }
        if let wanted {
            guard let match = listed.first(where: { $0.id == wanted || serial($0.serial) == serial(wanted) }) else {
                throw AppStoreConnectError.certificate("no distribution certificate of the team has serial number or id \(wanted); the team has "
                    + (listed.isEmpty ? "none" : listed.map(\.serial).joined(separator: ", ")))
            }
            return match
        }
        switch listed.count {
        case 0:
            throw AppStoreConnectError.certificate("the team has no distribution certificate, so no ad hoc profile can be made; create one in Certificates, Identifiers & Profiles")
        case 1:
            return listed[0]
        default:
            throw AppStoreConnectError.certificate("the team has \(listed.count) distribution certificates (serial numbers \(listed.map(\.serial).joined(separator: ", "))); choose the one the builds are signed with, with --certificate SERIAL")
        }
    }

    /// Deletes the profile betactl made for one bundle id and creates its successor (or adopts the
    /// successor named with `stamp` when Apple already has it).
    func regenerate(_ resource: (identifier: String, id: String, profiles: [ASC.Resource<ASC.ProfileAttributes>]), certificateID: String,
                    deviceIDs: [String], client: AppStoreConnectClient, now: Date, stamp: String? = nil) throws -> AppleProfileRegeneration.Made {
        let recorded = try store.read { db in
            try db.queryOne("SELECT profile_id FROM apple_profiles WHERE bundle_id = ?", [.text(resource.identifier)])?.string(0)
        }
        let prefix = "betactl \(resource.identifier) "
        let name = "betactl \(resource.identifier) \(stamp ?? Self.minuteStamp(now))"
        let adopted = stamp == nil ? nil : resource.profiles.first { $0.attributes?.name == name && $0.attributes?.profileType == "IOS_APP_ADHOC" }
        let old = resource.profiles.filter { profile in
            profile.id != adopted?.id
                && (profile.id == recorded || (profile.attributes?.name?.hasPrefix(prefix) == true && profile.attributes?.profileType == "IOS_APP_ADHOC"))
        }
        for profile in old {
            let response = try client.send("DELETE", "/v1/profiles/\(profile.id)")
            guard response.isSuccess || response.status == 404 else {
                throw client.failure(response, subject: "profile \"\(profile.attributes?.name ?? profile.id)\" of \(resource.identifier)")
            }
        }
        let deleted = old.first?.attributes?.name
        let created: ASC.Single<ASC.ProfileAttributes>
        let profileBytes: [UInt8]
        do {
            if let adopted {
                // Made by a run that was cut short before it heard Apple's answer: read it, do not make it again.
                let response = try client.send("GET", "/v1/profiles/\(adopted.id)")
                created = try client.decode(ASC.Single<ASC.ProfileAttributes>.self, response, path: "/v1/profiles/\(adopted.id)",
                                            subject: "profile \"\(name)\" for \(resource.identifier)")
            } else {
                let response = try client.send("POST", "/v1/profiles", body: Self.profileCreateBody(name: name, bundleResourceID: resource.id,
                                                                                                 certificateID: certificateID, deviceIDs: deviceIDs))
                created = try client.decode(ASC.Single<ASC.ProfileAttributes>.self, response, path: "/v1/profiles",
                                            subject: "profile \"\(name)\" for \(resource.identifier)")
            }
            guard let content = created.data.attributes?.profileContent, let data = Data(base64Encoded: content) else {
                throw AppStoreConnectError.unreadableAnswer(path: "/v1/profiles", detail: "the new profile came without profileContent")
            }
            profileBytes = [UInt8](data)
        } catch let error as AppStoreConnectError where deleted != nil {
            try store.write { db in try db.query("DELETE FROM apple_profiles WHERE bundle_id = ?", [.text(resource.identifier)]) }
            throw AppStoreConnectError.profileCreateFailedAfterDelete(bundleID: resource.identifier, deletedName: deleted ?? "",
                                                                      reason: error.description)
        }
        let imported = try Archive(home: home).importProfile(bytes: profileBytes, now: now)
        try store.write { db in
            try db.query("""
                INSERT INTO apple_profiles (bundle_id, profile_id, name, uuid, created_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (bundle_id) DO UPDATE SET profile_id = excluded.profile_id, name = excluded.name, uuid = excluded.uuid,
                    created_at = excluded.created_at
                """, [.text(resource.identifier), .text(created.data.id), .text(name), .text(imported.profile.uuid), .text(Timestamp.string(now))])
            if !imported.profile.teamIdentifier.isEmpty { try Self.setState("team_id", imported.profile.teamIdentifier, db: db) }
        }
        return AppleProfileRegeneration.Made(bundleID: resource.identifier, name: name, uuid: imported.profile.uuid,
                                             devices: imported.profile.provisionedDevices?.count ?? 0, replaced: deleted)
    }

    /// `2026-11-27 14:05` (UTC).
    static func minuteStamp(_ date: Date) -> String {
        let stamp = Timestamp.string(date)
        return String(stamp.prefix(10)) + " " + String(stamp.dropFirst(11).prefix(5))
    }

    static func profileCreateBody(name: String, bundleResourceID: String, certificateID: String, deviceIDs: [String]) -> [UInt8] {
        struct Linkage: Encodable { var type: String; var id: String }
        struct One: Encodable { var data: Linkage }
        struct Many: Encodable { var data: [Linkage] }
        struct Relationships: Encodable { var bundleId: One; var certificates: Many; var devices: Many }
        struct Attributes: Encodable { var name: String; var profileType = "IOS_APP_ADHOC" }
        struct DataObject: Encodable { var type = "profiles"; var attributes: Attributes; var relationships: Relationships }
        struct Body: Encodable { var data: DataObject }
        let body = Body(data: DataObject(attributes: Attributes(name: name), relationships: Relationships(
            bundleId: One(data: Linkage(type: "bundleIds", id: bundleResourceID)),
            certificates: Many(data: [Linkage(type: "certificates", id: certificateID)]),
            devices: Many(data: deviceIDs.map { Linkage(type: "devices", id: $0) }))))
        return (try? [UInt8](JSONEncoder().encode(body))) ?? []
    }
}
