#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// A registered device: a tester's iPhone, iPad, Mac or other Apple device.
public struct Device: Sendable, Equatable {
    /// Whether the device is currently registered.
    public enum Status: String, Sendable, Codable {
        /// Registered and usable in profiles.
        case active
        /// Removed; it may still hold a slot until the membership year renews.
        case removed
    }

    /// The device's UDID.
    public var identifier: DeviceIdentifier
    /// The device's name as shown in Apple's portal.
    public var name: String
    /// The device's family, which decides the slot pool it counts against.
    public var family: DeviceFamily
    /// The model code (`iPhone15,2`), when known.
    public var model: String?
    /// The owning tester's id, or nil for devices imported without a tester.
    public var testerID: Int64?
    /// The owning tester's name, for display.
    public var testerName: String?
    /// When the device was (last) added.
    public var addedAt: Date
    /// When the device was removed, if it is removed.
    public var removedAt: Date?
    /// Registered by enrolment from the device itself and not yet in any ad hoc profile betactl
    /// has seen: ready to upload to Apple (see `Roster.pendingDevices()`).
    public var isPending = false

    /// Active or removed.
    public var status: Status { removedAt == nil ? .active : .removed }
}

/// What `add-device` asks for.
public struct NewDevice: Sendable, Equatable {
    /// The UDID.
    public var identifier: DeviceIdentifier
    /// A name; when empty, one is made from the tester and family ("Ann's iPhone").
    public var name: String
    /// The family.
    public var family: DeviceFamily
    /// The model code, when known.
    public var model: String?

    /// Creates a request.
    public init(identifier: DeviceIdentifier, name: String = "", family: DeviceFamily, model: String? = nil) {
        self.identifier = identifier
        self.name = name
        self.family = family
        self.model = model
    }

    /// Resolves the family from a model code (which wins when both agree) or an explicit family.
    public static func family(model: String?, family: DeviceFamily?, identifier: DeviceIdentifier) throws(RosterError) -> DeviceFamily {
        if let model {
            guard let inferred = DeviceFamily(modelCode: model) else { throw RosterError.unknownModel(model) }
            if let family, family != inferred { throw RosterError.modelFamilyMismatch(model: model, inferred: inferred, given: family) }
            return inferred
        }
        if let family { return family }
        // Only Intel Macs use the 36-character UUID form, so it alone settles the family.
        if identifier.form == .uuid { return .mac }
        throw RosterError.familyRequired(identifier)
    }
}

/// How many slots one family uses in the current membership year.
public struct FamilyUsage: Sendable, Equatable {
    /// The family.
    public var family: DeviceFamily
    /// Slots taken this membership year: active devices plus removed ones that still count.
    public var used: Int
    /// Apple's limit per family per membership year.
    public var limit: Int
    /// Removed devices that still hold a slot.
    public var removed: Int
    /// When removed devices' slots come back.
    public var renews: CalendarDate
}

/// Slot usage across families.
public struct DeviceUsage: Sendable, Equatable {
    /// The membership year counted.
    public var year: MembershipYear
    /// One entry per family, in `DeviceFamily.allCases` order.
    public var families: [FamilyUsage]
}
