#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// What one device reply led to, as the result page shows it. Kept under a random reference so
/// the page's URL never carries the UDID.
public struct EnrollmentResult: Sendable, Equatable {
    /// The outcomes a reply can have.
    public enum Outcome: String, Sendable, CaseIterable {
        /// The device was added to the tester (the approval rule covers them): it takes a slot and is pending.
        case registered
        /// The device is an open request: it waits for the admin and takes no slot until approved.
        case requested
        /// The device was already the tester's (or the roster's, without a tester: now the tester's).
        case alreadyRegistered = "already-registered"
        /// The device is registered to another tester; nothing changed.
        case registeredToSomeoneElse = "registered-to-someone-else"
        /// Every slot of the device's family is used this membership year.
        case familyFull = "family-full"
        /// The challenge is older than its 30 minutes.
        case expired
        /// The challenge was already used by an earlier reply.
        case challengeUsed = "challenge-used"
        /// The challenge was handed to another tester.
        case wrongTester = "wrong-tester"
        /// The reply carried no challenge, or one this server never handed out.
        case unknownChallenge = "unknown-challenge"
        /// The device is already an open request of another tester; nothing changed.
        case requestedBySomeoneElse = "requested-by-someone-else"
        /// The tester already has as many open requests as allowed; nothing was added.
        case tooManyRequests = "too-many-requests"
        /// The reply's signature does not verify, or its signer is not an Apple device: nothing was added.
        case unverified
        /// The reply is not a readable signed device reply (garbage, truncated).
        case unreadable
        /// The reply is larger than any device sends.
        case tooLarge = "too-large"

        /// Whether the device is now in the roster as the tester's.
        public var isRegistered: Bool { self == .registered || self == .alreadyRegistered }

        /// Whether the reply was taken in: registered, or a request waiting for approval.
        public var isAccepted: Bool { isRegistered || self == .requested }
    }

    /// The random reference the result page is found by.
    public var reference: String
    /// The tester the reply was posted for.
    public var testerID: Int64
    /// What happened.
    public var outcome: Outcome
    /// The device, when the reply could be read.
    public var udid: DeviceIdentifier?
    /// The device's name in the roster (or the one it would have had).
    public var deviceName: String?
    /// The model code it reported.
    public var model: String?
    /// Its family.
    public var family: DeviceFamily?
    /// For `registered`: the device held a slot already this membership year, so none was taken.
    public var reusedSlot: Bool
    /// For `familyFull`: slots used and Apple's limit; for `tooManyRequests`: open requests and the cap.
    public var slots: (used: Int, limit: Int)?
    /// For `familyFull`: when the membership year renews and slots come back.
    public var renews: CalendarDate?
    /// For `unreadable`, `unverified` and `tooLarge`: what was wrong, for the server's log and the page.
    public var detail: String?
    /// When the reply was received.
    public var createdAt: Date

    /// Results are equal when every field is.
    public static func == (lhs: EnrollmentResult, rhs: EnrollmentResult) -> Bool {
        lhs.reference == rhs.reference && lhs.testerID == rhs.testerID && lhs.outcome == rhs.outcome && lhs.udid == rhs.udid
            && lhs.deviceName == rhs.deviceName && lhs.model == rhs.model && lhs.family == rhs.family && lhs.reusedSlot == rhs.reusedSlot
            && lhs.slots?.used == rhs.slots?.used && lhs.slots?.limit == rhs.slots?.limit && lhs.renews == rhs.renews
            && lhs.detail == rhs.detail && lhs.createdAt == rhs.createdAt
    }
}
