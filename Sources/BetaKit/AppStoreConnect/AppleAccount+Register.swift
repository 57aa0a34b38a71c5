#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

extension AppleAccount {
    /// Active roster devices not registered at Apple: what `apple register --approved` registers.
    ///
    /// Today every active roster device was approved by an admin (added, imported, or enrolled by
    /// a tester the admin invited); once self-enrolled devices become requests an admin approves,
    /// this stays right because only approved requests become roster devices.
    public func approvedUnregistered() throws -> [Device] {
        let registered = try store.read { db in
            Set(try db.query("SELECT upper(udid) FROM apple_devices").compactMap { $0.string(0) })
        }
        return try Roster(home: home).devices(includeRemoved: false).filter { !registered.contains($0.identifier.value.uppercased()) }
    }

    /// Registers roster devices at Apple with `POST /v1/devices`, named as the roster names them.
    /// The slot rule is checked first against Apple's own count (synced first if it never was),
    /// refusing early with the renewal date; Apple's 409 counts as success (its list is re-read
    /// once, to learn the ids); Apple's 403 for the yearly limit is the same refusal.
    public func register(_ udids: [DeviceIdentifier], client: AppStoreConnectClient, now: Date) throws -> AppleRegistration {
        let callsBefore = client.callCount
        let roster = try Roster(home: home).devices(includeRemoved: false)
        var devices: [Device] = []
        for udid in udids {
            guard let device = roster.first(where: { $0.identifier == udid }) else { throw AppStoreConnectError.unknownDevice(udid.value) }
            if !devices.contains(where: { $0.identifier == udid }) { devices.append(device) }
        }
        if try !hasSynced() { _ = try sync(client: client, now: now) }
        let year = home.settings.membershipYear(at: now)
        let yearStart = Timestamp.string(startOf: year.start)
        let known = try store.read { db in
            Set(try db.query("SELECT upper(udid) FROM apple_devices").compactMap { $0.string(0) })
        }
        var used: [DeviceFamily: Int] = [:]
        for family in DeviceFamily.allCases {
            used[family] = try store.read { db in try Self.appleSlots(family: family, yearStart: yearStart, db: db) }
        }
        var outcomes: [AppleRegistration.Outcome] = []
        var duplicates = false
        for device in devices {
            let name = Self.appleName(device)
            if known.contains(device.identifier.value.uppercased()) {
                outcomes.append(.init(udid: device.identifier, name: name, kind: .alreadyRegistered))
                continue
            }
            let taken = used[device.family] ?? 0
            let refusal = RosterError.limitReached(device.identifier, family: device.family, used: taken, limit: Roster.limitPerFamily,
                                                   removedStillCounting: 0, renews: year.renews).description
            guard taken < Roster.limitPerFamily else {
                outcomes.append(.init(udid: device.identifier, name: name, kind: .refused, reason: refusal))
                continue
            }
            let body = Self.deviceCreateBody(name: name, udid: device.identifier.value, platform: AppleDeviceClass.platform(device.family))
            let response = try client.send("POST", "/v1/devices", body: body)
            let subject = "device \(device.identifier) (\(name))"
            switch response.status {
            case 201:
                let created = try client.decode(ASC.Single<ASC.DeviceAttributes>.self, response, path: "/v1/devices", subject: subject)
                try store.write { db in try Self.storeCreated(created.data, fallbackUDID: device.identifier.value, family: device.family, now: now, db: db) }
                used[device.family] = taken + 1
                outcomes.append(.init(udid: device.identifier, name: name, kind: .registered))
            case 409 where AppStoreConnectClient.errorText(response).contains("already exists"):
                duplicates = true
                outcomes.append(.init(udid: device.identifier, name: name, kind: .alreadyRegistered))
            case 403 where AppStoreConnectClient.isDeviceLimit(AppStoreConnectClient.errorText(response)):
                used[device.family] = Roster.limitPerFamily
                let full = RosterError.limitReached(device.identifier, family: device.family, used: Roster.limitPerFamily,
                                                    limit: Roster.limitPerFamily, removedStillCounting: 0, renews: year.renews).description
                outcomes.append(.init(udid: device.identifier, name: name, kind: .refused, reason: full))
            default:
                let failure = client.failure(response, subject: subject)
                switch failure {
                case .unauthorized, .forbidden, .rateLimited: throw failure
                case let .refused(_, status, _) where status >= 500: throw failure
                default: outcomes.append(.init(udid: device.identifier, name: name, kind: .refused, reason: failure.description))
                }
            }
        }
        if duplicates { _ = try sync(client: client, now: now) }
        try recordRateLimit(client)
        return AppleRegistration(outcomes: outcomes, calls: client.callCount - callsBefore)
    }

    /// The name Apple shows: the tester's name and the model ("Ann Lee iPhone 14 Pro"), else the
    /// roster's name.
    static func appleName(_ device: Device) -> String {
        let model = device.model.flatMap { DeviceModelName.marketingName(forModelCode: $0) } ?? device.family.displayName
        if let tester = device.testerName, !tester.isEmpty { return Self.clip("\(tester) \(model)") }
        return Self.clip(device.name.isEmpty ? model : device.name)
    }

    /// Apple allows 50 characters in a device name.
    static func clip(_ name: String) -> String { name.count <= 50 ? name : String(name.prefix(50)) }

    static func deviceCreateBody(name: String, udid: String, platform: String) -> [UInt8] {
        struct Body: Encodable {
            struct DataObject: Encodable {
                struct Attributes: Encodable { var name: String; var udid: String; var platform: String }
                var type = "devices"
                var attributes: Attributes
            }
            var data: DataObject
        }
        let body = Body(data: .init(attributes: .init(name: name, udid: udid, platform: platform)))
        return (try? [UInt8](JSONEncoder().encode(body))) ?? []
    }

    static func storeCreated(_ created: ASC.Resource<ASC.DeviceAttributes>, fallbackUDID: String, family: DeviceFamily, now: Date,
                             db: SQLiteConnection, announce: Bool = true) throws {
        let attributes = created.attributes
        try db.query("""
            INSERT INTO apple_devices (apple_id, udid, name, device_class, platform, model, status, added_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (apple_id) DO UPDATE SET udid = excluded.udid, name = excluded.name, status = excluded.status
            """, [.text(created.id), .text(attributes?.udid ?? fallbackUDID), .text(attributes?.name ?? ""),
                  .text(attributes?.deviceClass ?? AppleDeviceClass.deviceClass(family)),
                  .text(attributes?.platform ?? AppleDeviceClass.platform(family)), .optional(attributes?.model),
                  .text(attributes?.status == "DISABLED" ? "DISABLED" : "ENABLED"),
                  .text(AppleDeviceClass.timestamp(attributes?.addedDate) ?? Timestamp.string(now))])
        if announce { try WebhookOutbox.deviceRegistered(udid: attributes?.udid ?? fallbackUDID, appleID: created.id, family: family, db: db, now: now) }
    }
}
