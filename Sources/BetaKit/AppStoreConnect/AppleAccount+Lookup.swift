#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

extension AppleAccount {
    /// Whether Apple's list, as last synced or registered, has `udid`.
    public func isKnown(_ udid: DeviceIdentifier) throws -> Bool {
        try store.read { db in
            try db.queryOne("SELECT 1 FROM apple_devices WHERE udid = ? COLLATE NOCASE", [.text(udid.value)]) != nil
        }
    }

    /// Asks Apple for `udid` (`GET /v1/devices?filter[udid]=`), one call that changes nothing; when
    /// Apple has it, records it as registered (with `device.registered`) and returns true. The
    /// automatic flow asks before registering, so a registration whose answer was lost (the process
    /// was killed) is found instead of sent again.
    public func lookUp(_ udid: DeviceIdentifier, family: DeviceFamily, client: AppStoreConnectClient, now: Date) throws -> Bool {
        let response = try client.send("GET", "/v1/devices", query: [("filter[udid]", udid.value), ("limit", "20")])
        let page = try client.decode(ASC.List<ASC.DeviceAttributes, ASC.Nothing>.self, response, path: "/v1/devices",
                                     subject: "the device list (looking for \(udid))")
        try recordRateLimit(client)
        // Apple's filter may match loosely: compare the UDID here.
        guard let found = page.data.first(where: { $0.attributes?.udid?.uppercased() == udid.value.uppercased() }) else { return false }
        try store.write { db in
            let known = try db.queryOne("SELECT 1 FROM apple_devices WHERE apple_id = ?", [.text(found.id)]) != nil
            try Self.storeCreated(found, fallbackUDID: udid.value, family: family, now: now, db: db, announce: !known)
        }
        return true
    }
}
