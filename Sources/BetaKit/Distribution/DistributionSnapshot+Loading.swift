#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

extension DistributionSnapshot {
    /// The columns of what a release's profile covers.
    static let coverageColumns = SQLColumns(["id", "profile_all_devices", "profile_devices_recorded"])
    /// The columns of one device a release's profile lists.
    static let coveredDeviceColumns = SQLColumns(["release_id", "udid"])
    /// The columns of a release's package size.
    static let packageSizeColumns = SQLColumns(["r.id", "b.size"])

    /// Reads a snapshot of `home`'s database in one read transaction (a consistent view even while
    /// another process writes).
    public static func load(from home: Home) throws -> DistributionSnapshot {
        try home.store.read { db in
            let settings = Store.settings(from: try Store.settingValues(db)) ?? home.settings
            let testers = try Roster.loadTesters(db, includeRemoved: false)
            let devices = try db.query(Roster.deviceSelect + " WHERE d.tester_id IS NOT NULL").map { row throws(SQLRowError) in try Roster.device(from: row) }
            let groups = try Archive.releaseGroups(db)
            let releases = try db.query("SELECT \(Archive.releaseColumns.list) FROM releases ORDER BY id DESC").map { row throws(SQLRowError) in
                try Archive.release(from: row, groups: groups[try Archive.releaseColumns.reader(row).int("id")] ?? [])
            }
            var coverage: [Int64: ProfileCoverage] = [:]
            for found in try db.query("SELECT \(Self.coverageColumns.list) FROM releases") {
                let row = Self.coverageColumns.reader(found)
                coverage[try row.int("id")] = ProfileCoverage(allDevices: try row.int("profile_all_devices") == 1, udids: [],
                                                              isKnown: try row.int("profile_devices_recorded") == 1)
            }
            for found in try db.query("SELECT \(Self.coveredDeviceColumns.list) FROM release_devices") {
                let row = Self.coveredDeviceColumns.reader(found)
                coverage[try row.int("release_id")]?.udids.insert(try row.text("udid"))
            }
            var sizes: [Int64: Int64] = [:]
            for found in try db.query("SELECT \(Self.packageSizeColumns.list) FROM releases r JOIN blobs b ON b.sha256 = r.package_blob") {
                let row = Self.packageSizeColumns.reader(found)
                sizes[try row.int("r.id")] = try row.int("b.size")
            }
            var snapshot = DistributionSnapshot(settings: settings, testers: testers, devices: devices, releases: releases,
                                                coverage: coverage, packageSizes: sizes)
            snapshot.signingIdentity = try SigningIdentityStore.load(db)
            snapshot.provisioning = try DeviceProvisioning.load(db: db)
            return snapshot
        }
    }
}
