#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

extension AppleAccount {
    /// Reads Apple's whole device list (200 a page, following `links.next`), keeps it as the truth
    /// the slot ledger reconciles with, and imports the devices the roster does not know (enabled
    /// ones active, disabled ones as removed on the day Apple added them).
    public func sync(client: AppStoreConnectClient, now: Date) throws -> AppleSyncResult {
        let callsBefore = client.callCount
        let devices: [ASC.Resource<ASC.DeviceAttributes>] = try client.list("/v1/devices", query: [], subject: "the device list")
        let imported = try store.write { db in try Self.replaceAppleDevices(devices, now: now, db: db) }
        try recordRateLimit(client)
        let status = try self.status(now: now)
        return AppleSyncResult(appleDevices: status.appleDevices, appleDisabled: status.appleDisabled, imported: imported,
                               registered: status.registered, disabled: status.disabled, pending: status.pending,
                               calls: client.callCount - callsBefore, ledger: status.ledger)
    }

    /// Replaces the stored list with `devices` and imports those the roster lacks; returns them.
    static func replaceAppleDevices(_ devices: [ASC.Resource<ASC.DeviceAttributes>], now: Date, db: SQLiteConnection) throws -> [DeviceIdentifier] {
        try db.query("DELETE FROM apple_devices")
        var imported: [DeviceIdentifier] = []
        for device in devices {
            guard let attributes = device.attributes, let udid = attributes.udid, !udid.isEmpty else { continue }
            let status = attributes.status == "DISABLED" ? "DISABLED" : "ENABLED"
            let added = AppleDeviceClass.timestamp(attributes.addedDate)
            try db.query("""
                INSERT INTO apple_devices (apple_id, udid, name, device_class, platform, model, status, added_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (apple_id) DO NOTHING
                """, [.text(device.id), .text(udid), .text(attributes.name ?? ""), .text(attributes.deviceClass ?? ""),
                      .text(attributes.platform ?? ""), .optional(attributes.model), .text(status), .optional(added)])
            guard let identifier = try? DeviceIdentifier(udid),
                  let family = attributes.deviceClass.flatMap(AppleDeviceClass.family),
                  try db.queryOne("SELECT 1 FROM devices WHERE udid = ? COLLATE NOCASE", [.text(identifier.value)]) == nil else { continue }
            let addedAt = added ?? Timestamp.string(now)
            let removedAt: SQLiteValue = status == "DISABLED" ? .text(addedAt) : .null
            try db.query("INSERT INTO devices (udid, tester_id, name, family, model, added_at, removed_at) VALUES (?, NULL, ?, ?, ?, ?, ?)",
                         [.text(identifier.value), .text(attributes.name ?? family.displayName), .text(family.rawValue),
                          .optional(attributes.model), .text(addedAt), removedAt])
            try db.query("INSERT INTO device_history (udid, family, added_at, removed_at) VALUES (?, ?, ?, ?)",
                         [.text(identifier.value), .text(family.rawValue), .text(addedAt), removedAt])
            imported.append(identifier)
        }
        try setState("last_sync", Timestamp.string(now), db: db)
        return imported
    }
}
