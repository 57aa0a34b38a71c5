#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Roster {
    /// Replaces a current tester's groups (by id, email or name); returns the tester as changed.
    public func setGroups(_ reference: String, groups requested: [String]) throws -> Tester {
        let groups = try Self.validate(groups: requested)
        return try store.write { db in
            var tester = try Self.resolveTester(reference, db: db)
            try db.query("DELETE FROM tester_groups WHERE tester_id = ?", [.integer(tester.id)])
            for group in groups {
                try db.query("INSERT INTO tester_groups (tester_id, name) VALUES (?, ?)", [.integer(tester.id), .text(group)])
            }
            tester.groups = groups
            return tester
        }
    }

    /// Gives a current tester a new secret link. The old link stops working at once (a leaked link
    /// is the reason to do this); their devices, groups and downloads stay.
    public func reissueLink(_ reference: String) throws -> Tester {
        let token = InviteToken.make()
        return try store.write { db in
            var tester = try Self.resolveTester(reference, db: db)
            try db.query("UPDATE testers SET token = ?, token_digest = ? WHERE id = ?",
                         [.text(token), .text(InviteToken.digest(token)), .integer(tester.id)])
            tester.token = token
            return tester
        }
    }
}
