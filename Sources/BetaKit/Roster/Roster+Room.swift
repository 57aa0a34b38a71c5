#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

extension Roster {
    /// Throws `RosterError.limitReached` when registering `udid` as a `family` device now would
    /// need a slot and none is left this membership year; takes nothing either way.
    static func checkRoom(for udid: DeviceIdentifier, family: DeviceFamily, settings: HomeSettings, now: Date, db: SQLiteConnection) throws {
        let year = settings.membershipYear(at: now)
        let yearStart = Timestamp.string(startOf: year.start)
        if try holdsSlot(udid, family: family, yearStart: yearStart, db: db) { return }
        let (used, active) = try slotCount(family: family, yearStart: yearStart, db: db)
        if used >= limitPerFamily {
            throw RosterError.limitReached(udid, family: family, used: used, limit: limitPerFamily, removedStillCounting: used - active,
                                           renews: year.renews)
        }
    }
}
