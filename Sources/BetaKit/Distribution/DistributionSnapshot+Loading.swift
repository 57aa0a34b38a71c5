#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

extension DistributionSnapshot {
    /// Reads a snapshot of `home`'s database in one read transaction (a consistent view even while
    /// another process writes).
    public static func load(from home: Home) throws -> DistributionSnapshot {
        try home.store.read { db in
            let settingRows = try db.query("SELECT key, value FROM settings").reduce(into: [String: String]()) { result, row in
                if let key = row.string(0), let value = row.string(1) { result[key] = value }
            }
            let settings = Store.settings(from: settingRows) ?? home.settings
            let testers = try Roster.loadTesters(db, includeRemoved: false)
            let devices = try db.query(Roster.deviceSelect + " WHERE d.tester_id IS NOT NULL").map { row throws(SQLRowError) in try Roster.device(from: row) }
            var groups: [Int64: [String]] = [:]
            for row in try db.query("SELECT release_id, name FROM release_groups ORDER BY name") {
                if let id = row.int(0), let name = row.string(1) { groups[id, default: []].append(name) }
            }
            let releases = try db.query("SELECT \(Archive.releaseColumns.list) FROM releases ORDER BY id DESC").map { row throws(SQLRowError) in
                try Archive.release(from: row, groups: groups[try Archive.releaseColumns.reader(row).int("id")] ?? [])
            }
            var coverage: [Int64: ProfileCoverage] = [:]
            for row in try db.query("SELECT id, profile_all_devices, profile_devices_recorded FROM releases") {
                guard let id = row.int(0) else { continue }
                coverage[id] = ProfileCoverage(allDevices: row.int(1) == 1, udids: [], isKnown: row.int(2) == 1)
            }
            for row in try db.query("SELECT release_id, udid FROM release_devices") {
                if let id = row.int(0), let udid = row.string(1) { coverage[id]?.udids.insert(udid) }
            }
            var sizes: [Int64: Int64] = [:]
            for row in try db.query("SELECT r.id, b.size FROM releases r JOIN blobs b ON b.sha256 = r.package_blob") {
                if let id = row.int(0), let size = row.int(1) { sizes[id] = size }
            }
            var snapshot = DistributionSnapshot(settings: settings, testers: testers, devices: devices, releases: releases,
                                                coverage: coverage, packageSizes: sizes)
            snapshot.signingIdentity = try SigningIdentityStore.load(db)
            snapshot.provisioning = try DeviceProvisioning.load(db: db)
            return snapshot
        }
    }
}
