#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// Device enrolment: a tester's iPhone hands over its UDID itself, through a Profile Service
/// profile, as a request the admin approves (or a rule approves) before it takes a slot.
///
/// Each profile served carries a fresh challenge: random, single-use, bound to the tester the
/// profile was made for, valid for 30 minutes. The device posts a reply signed by its own
/// identity certificate, echoing it. The reply counts only when its signature verifies and the
/// signer chains to Apple's device CA (`DeviceReplyVerifier`), and when the challenge checks out.
/// Then the device becomes an open request (`DeviceRequests`), taking no slot; a tester may hold
/// a few open requests at a time. When the approval rule covers the tester, the request is
/// approved at once and the device registered under the per-family slot rule. Every reply, good
/// or bad, is answered with a result kept under a random reference, which the server turns into
/// the page the device's browser opens.
public struct DeviceEnrollment: Sendable {
    /// How long a challenge stays valid.
    public static let challengeLifetime: TimeInterval = 30 * 60
    /// The largest reply read; real ones are a few kilobytes.
    public static let maxReplySize = 64 << 10
    /// Unused challenges a tester may have outstanding; older ones are dropped beyond this, so a
    /// link reloaded in a loop cannot grow the table.
    static let outstandingChallengeLimit = 20
    /// How long results stay viewable.
    static let resultLifetime: TimeInterval = 7 * 86_400
    /// Results kept per tester; older ones go, so a flood of posts to one link cannot grow the table.
    static let resultsPerTester = 100

    /// Open requests one tester may have at a time; a reply past it is refused.
    public static let defaultOpenRequestLimit = 5

    let home: Home
    /// Whether replies whose signature does not verify are taken in anyway (simulators, tests).
    let acceptsUnverified: Bool
    /// Open requests one tester may have at a time.
    let openRequestLimit: Int

    /// Enrolment on `home`. `acceptsUnverified` takes in replies that are unsigned or not signed
    /// by an Apple device (`serve --allow-unverified-enrollment`); never on a real server.
    public init(home: Home, acceptsUnverified: Bool = false, openRequestLimit: Int = Self.defaultOpenRequestLimit) {
        self.home = home
        self.acceptsUnverified = acceptsUnverified
        self.openRequestLimit = openRequestLimit
    }

    /// Hands out a fresh challenge for `testerID`, to put into the profile served to them.
    public func issueChallenge(testerID: Int64, now: Date) throws -> String {
        let challenge = InviteToken.make()
        let created = Timestamp.string(now)
        let expires = Timestamp.string(now.addingTimeInterval(Self.challengeLifetime))
        let staleBefore = Timestamp.string(now.addingTimeInterval(-86_400))
        try home.store.write { db in
            try db.query("DELETE FROM enrollment_challenges WHERE expires_at < ?", [.text(staleBefore)])
            try db.query("DELETE FROM enrollment_results WHERE created_at < ?",
                         [.text(Timestamp.string(now.addingTimeInterval(-Self.resultLifetime)))])
            try db.query("""
                DELETE FROM enrollment_challenges WHERE digest IN (
                    SELECT digest FROM enrollment_challenges WHERE tester_id = ? AND used_at IS NULL
                    ORDER BY created_at DESC, digest LIMIT -1 OFFSET ?)
                """, [.integer(testerID), .integer(Int64(Self.outstandingChallengeLimit - 1))])
            try db.query("INSERT INTO enrollment_challenges (digest, tester_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                         [.text(InviteToken.digest(challenge)), .integer(testerID), .text(created), .text(expires)])
        }
        return challenge
    }

    /// Handles a device's reply posted for `testerID`: `body` as received, `bodyTooLarge` when the
    /// server cut it off at its limit. Never throws for anything the device sent: every bad reply
    /// becomes a result saying what was wrong, and adds nothing. Throws only when the database fails.
    public func receive(_ body: [UInt8], bodyTooLarge: Bool = false, testerID: Int64, now: Date) throws -> EnrollmentResult {
        var result = EnrollmentResult(reference: InviteToken.make(), testerID: testerID, outcome: .unreadable, udid: nil, deviceName: nil,
                                      model: nil, family: nil, reusedSlot: false, slots: nil, renews: nil, detail: nil,
                                      createdAt: Timestamp.date(Timestamp.string(now)) ?? now)
        var reply: DeviceEnrollmentReply
        if bodyTooLarge || body.count > Self.maxReplySize {
            result.outcome = .tooLarge
            result.detail = Self.cleaned("the reply is larger than the \(Self.maxReplySize) bytes a device sends")
            return try record(result)
        }
        do {
            reply = try DeviceEnrollmentReply(bytes: body)
        } catch {
            result.detail = Self.cleaned(error.description)
            return try record(result)
        }
        let verifiedContent: [UInt8]?
        do {
            verifiedContent = try DeviceReplyVerifier.verify(body)
        } catch {
            guard acceptsUnverified else {
                result.outcome = .unverified
                result.detail = Self.cleaned(error.description)
                return try record(result)
            }
            verifiedContent = nil
        }
        if let content = verifiedContent {
            // What is acted on is what the signature covers, as libcrypto read it.
            let (signer, certificates) = (reply.signer, reply.certificates)
            do {
                reply = try DeviceEnrollmentReply(attributes: try PlistValue(parsing: content))
            } catch {
                result.detail = Self.cleaned("the signed content is not the reply's plist: \(error)")
                return try record(result)
            }
            reply.signer = signer
            reply.certificates = certificates
        }
        let verified = verifiedContent != nil
        result.udid = reply.udid
        result.model = reply.product
        guard let product = reply.product, let family = DeviceFamily(modelCode: product) else {
            result.detail = Self.cleaned(reply.product.map { "the reply's model code \($0) is not one betactl knows" }
                ?? "the reply does not say which model the device is (no PRODUCT)")
            return try record(result)
        }
        result.family = family
        guard let challenge = reply.challenge, InviteToken.isPlausible(challenge) else {
            result.outcome = .unknownChallenge
            return try record(result)
        }
        let settings = home.settings
        let limit = openRequestLimit
        return try home.store.write { db in
            result.outcome = try Self.checkChallenge(challenge, testerID: testerID, now: now, db: db)
            if result.outcome == .registered {
                try db.query("UPDATE enrollment_challenges SET used_at = ? WHERE digest = ?",
                             [.text(Timestamp.string(now)), .text(InviteToken.digest(challenge))])
                try Self.admit(reply, family: family, verified: verified, testerID: testerID, settings: settings, openRequestLimit: limit,
                               now: now, into: &result, db: db)
            }
            try Self.insert(result, db: db)
            return result
        }
    }

    /// The columns `checkChallenge` reads.
    static let challengeColumns = SQLColumns(["tester_id", "expires_at", "used_at"])

    /// Whether the challenge lets the reply through (`.registered`), or why not.
    static func checkChallenge(_ challenge: String, testerID: Int64, now: Date, db: SQLiteConnection) throws -> EnrollmentResult.Outcome {
        guard let found = try db.queryOne("SELECT \(challengeColumns.list) FROM enrollment_challenges WHERE digest = ?",
                                          [.text(InviteToken.digest(challenge))]) else { return .unknownChallenge }
        let row = challengeColumns.reader(found)
        // Another tester's challenge is refused without using it up: it may still be theirs to use.
        guard try row.int("tester_id") == testerID else { return .wrongTester }
        if try row.optionalText("used_at") != nil { return .challengeUsed }
        guard now < (try row.date("expires_at")) else { return .expired }
        return .registered
    }

    /// A reason as kept and shown: at most 300 characters, control characters (which a forged reply
    /// can put in a quoted value, and at which SQLite text would end) replaced by "?".
    static func cleaned(_ detail: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in detail.unicodeScalars.prefix(300) {
            scalars.append(scalar.value < 0x20 || scalar.value == 0x7F ? "?" : scalar)
        }
        return String(scalars)
    }

    /// Stores a result reached without touching the roster.
    private func record(_ result: EnrollmentResult) throws -> EnrollmentResult {
        try home.store.write { db in try Self.insert(result, db: db) }
        return result
    }

    static func insert(_ result: EnrollmentResult, db: SQLiteConnection) throws {
        try db.query("""
            INSERT INTO enrollment_results (reference, tester_id, outcome, udid, device_name, model, family, reused_slot, slots_used,
                slots_limit, renews, detail, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(result.reference), .integer(result.testerID), .text(result.outcome.rawValue), .optional(result.udid?.value),
                  .optional(result.deviceName), .optional(result.model), .optional(result.family?.rawValue),
                  .integer(result.reusedSlot ? 1 : 0), .optional(result.slots.map { Int64($0.used) }),
                  .optional(result.slots.map { Int64($0.limit) }), .optional(result.renews?.description),
                  .optional(result.detail), .text(Timestamp.string(result.createdAt))])
        try db.query("""
            DELETE FROM enrollment_results WHERE reference IN (
                SELECT reference FROM enrollment_results WHERE tester_id = ? ORDER BY created_at DESC, reference LIMIT -1 OFFSET ?)
                AND reference != ?
            """, [.integer(result.testerID), .integer(Int64(resultsPerTester)), .text(result.reference)])
    }

    /// The result under `reference`, if it belongs to `testerID` and is still kept.
    public func result(reference: String, testerID: Int64) throws -> EnrollmentResult? {
        guard InviteToken.isPlausible(reference) else { return nil }
        return try home.store.read { db in
            guard let found = try db.queryOne("SELECT \(Self.resultColumns.list) FROM enrollment_results WHERE reference = ? AND tester_id = ?",
                                              [.text(reference), .integer(testerID)]) else { return nil }
            let row = Self.resultColumns.reader(found)
            // An outcome this version does not know (written by a newer one) is no result to show.
            guard let outcome = EnrollmentResult.Outcome(rawValue: try row.text("outcome")) else { return nil }
            let slots = try row.optionalInt("slots_used").flatMap { used in try row.optionalInt("slots_limit").map { (Int(used), Int($0)) } }
            return EnrollmentResult(reference: reference, testerID: testerID, outcome: outcome,
                                    udid: try row.optionalText("udid").flatMap { try? DeviceIdentifier($0) }, deviceName: try row.optionalText("device_name"),
                                    model: try row.optionalText("model"), family: try row.optional("family", as: DeviceFamily.self),
                                    reusedSlot: try row.int("reused_slot") == 1, slots: slots,
                                    renews: try row.optionalText("renews").flatMap(CalendarDate.init(iso:)),
                                    detail: try row.optionalText("detail"), createdAt: try row.date("created_at"))
        }
    }
}

extension DeviceEnrollment {
    /// The columns of `SELECT … FROM enrollment_results`, shared with `result(reference:testerID:)`.
    static let resultColumns = SQLColumns(["reference", "tester_id", "outcome", "udid", "device_name", "model", "family", "reused_slot",
                                           "slots_used", "slots_limit", "renews", "detail", "created_at"])
}
