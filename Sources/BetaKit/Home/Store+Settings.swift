#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Store {
    enum SettingKey {
        static let createdAt = "created_at"
        static let teamID = "team_id"
        static let membershipRenewal = "membership_renewal"
        static let publicURL = "public_url"
        static let brandName = "brand_name"
        static let brandColor = "brand_color"
        static let demo = "demo"
    }

    /// The home's settings, or nil when `init` never finished.
    func loadSettings() throws -> HomeSettings? {
        let values = try read { db in try Self.settingValues(db) }
        return Self.settings(from: values)
    }

    /// The columns of `SELECT … FROM settings`.
    static let settingColumns = SQLColumns(["key", "value"])

    /// Every stored setting by key, read inside the caller's transaction.
    static func settingValues(_ db: SQLiteConnection) throws -> [String: String] {
        var values: [String: String] = [:]
        for found in try db.query("SELECT \(settingColumns.list) FROM settings") {
            let row = settingColumns.reader(found)
            values[try row.text("key")] = try row.text("value")
        }
        return values
    }

    static func settings(from values: [String: String]) -> HomeSettings? {
        guard let created = values[SettingKey.createdAt].flatMap(Timestamp.date) else { return nil }
        return HomeSettings(
            teamID: values[SettingKey.teamID],
            membershipRenewal: values[SettingKey.membershipRenewal].flatMap(CalendarDate.init(iso:)),
            publicURL: values[SettingKey.publicURL] ?? HomeSettings.defaultPublicURL,
            createdAt: created,
            brandName: values[SettingKey.brandName] ?? HomeSettings.defaultBrandName,
            brandColor: values[SettingKey.brandColor] ?? HomeSettings.defaultBrandColor,
            isDemo: values[SettingKey.demo] == "1")
    }

    /// Applies `change` in one transaction and returns the settings before and after.
    /// `created_at` is written last so a half-finished first `init` reads as uninitialised.
    func applySettings(_ change: HomeSettingsChange, now: Date) throws -> (before: HomeSettings?, after: HomeSettings) {
        try write { db in
            let existing = try Self.settingValues(db)
            let before = Self.settings(from: existing)
            func put(_ key: String, _ value: String) throws {
                try db.query("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                             [.text(key), .text(value)])
            }
            if let team = change.teamID { try put(SettingKey.teamID, team) }
            if let renewal = change.membershipRenewal { try put(SettingKey.membershipRenewal, renewal.description) }
            if let url = change.publicURL { try put(SettingKey.publicURL, url) }
            if let name = change.brandName { try put(SettingKey.brandName, name) }
            if let color = change.brandColor { try put(SettingKey.brandColor, color) }
            if let demo = change.isDemo { try put(SettingKey.demo, demo ? "1" : "0") }
            if existing[SettingKey.publicURL] == nil && change.publicURL == nil {
                try put(SettingKey.publicURL, HomeSettings.defaultPublicURL)
            }
            if before == nil { try put(SettingKey.createdAt, Timestamp.string(now)) }
            let merged = try Self.settingValues(db)  // every row, the ones just written included
            guard let after = Self.settings(from: merged) else {
                throw SQLiteError(code: 1, message: "settings were not saved", sql: nil)
            }
            return (before, after)
        }
    }
}
