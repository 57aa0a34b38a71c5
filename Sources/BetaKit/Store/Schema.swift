/// One step of the database schema's history. Steps are applied in order and never edited once released.
struct Migration: Sendable {
    /// The `user_version` this step brings the database to.
    var version: Int
    /// A short label for error messages.
    var name: String
    /// The DDL to run.
    var sql: String
    /// Fills new columns or tables from existing rows where SQL alone cannot (a digest, say); runs in
    /// the same transaction, right after `sql`.
    var backfill: (@Sendable (SQLiteConnection) throws -> Void)? = nil
}

/// Why the database's schema cannot be used.
public struct SchemaError: Error, Sendable, CustomStringConvertible {
    /// The version found in the database.
    public var found: Int
    /// The newest version this build of betactl knows.
    public var supported: Int

    /// A sentence naming both versions and the fix.
    public var description: String {
        "this home's database is at schema version \(found), but this betactl only knows versions up to \(supported); it was written by a newer betactl, so upgrade betactl"
    }
}

enum Schema {
    /// Every migration, oldest first. Add new areas as new files with their own `static let`.
    static let migrations: [Migration] = [roster, archive, symbolHistory, releaseMissingSymbols, distribution, enrollment, admin, crashes, deviceRequests, crashIdentity, appStoreConnect, codeSigning, webhooks, provisioningJobs]

    static var latestVersion: Int { migrations.last?.version ?? 0 }

    static func migrate(_ db: SQLiteConnection) throws {
        // Checking inside an IMMEDIATE transaction means two processes opening
        // an old database at once cannot both apply the same step.
        let current = try db.queryOne("PRAGMA user_version")?.int(0) ?? 0
        if current == latestVersion { return }
        try db.execute("BEGIN IMMEDIATE")
        do {
            let version = Int(try db.queryOne("PRAGMA user_version")?.int(0) ?? 0)
            guard version <= latestVersion else { throw SchemaError(found: version, supported: latestVersion) }
            for migration in migrations where migration.version > version {
                try db.execute(migration.sql)
                try migration.backfill?(db)
                try db.execute("PRAGMA user_version = \(migration.version)")
            }
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }
}
