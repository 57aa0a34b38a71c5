import AppleFormats

/// Why a roster change was refused.
public enum RosterError: Error, Sendable, Equatable, CustomStringConvertible, CategorizedError {
    /// The tester's name is empty.
    case emptyName
    /// A tester's name holds a NUL character (it would be cut short there).
    case nulInTesterName(String)
    /// A device's name holds a NUL character (it would be cut short there).
    case nulInDeviceName(String)
    /// The email address is malformed.
    case invalidEmail(String)
    /// Another current tester has the email.
    case duplicateEmail(String, testerID: Int64, testerName: String)
    /// A group name is unusable.
    case invalidGroup(String)
    /// No tester matches the id, email or name.
    case testerNotFound(String)
    /// Several testers share the name.
    case ambiguousTester(String, ids: [Int64])
    /// The device is already registered (to this or another tester).
    case deviceAlreadyRegistered(DeviceIdentifier, testerName: String?)
    /// No device has the UDID.
    case deviceNotFound(DeviceIdentifier)
    /// The device was already removed.
    case deviceAlreadyRemoved(DeviceIdentifier, on: CalendarDate)
    /// Neither a model code nor a family was given.
    case familyRequired(DeviceIdentifier)
    /// The model code is not one betactl knows.
    case unknownModel(String)
    /// The family name is not one of Apple's families.
    case unknownFamily(String)
    /// The model code and the family disagree.
    case modelFamilyMismatch(model: String, inferred: DeviceFamily, given: DeviceFamily)
    /// All slots in the family are used this membership year.
    case limitReached(DeviceIdentifier, family: DeviceFamily, used: Int, limit: Int, removedStillCounting: Int, renews: CalendarDate)

    /// A sentence naming the value and the fix.
    public var description: String {
        switch self {
        case .emptyName:
            return "a tester needs a name; pass it as the first argument, e.g. betactl add-tester \"Ann Lee\""
        case let .nulInTesterName(name):
            return "the tester name \"\(Self.visible(name))\" contains a NUL character, which would cut it short; give the name without it"
        case let .nulInDeviceName(name):
            return "the device name \"\(Self.visible(name))\" contains a NUL character, which would cut it short; give the name without it"
        case let .invalidEmail(email):
            return "\"\(email)\" is not a valid email address; use the form name@example.com"
        case let .duplicateEmail(email, id, name):
            return "email \(email) already belongs to tester \(id) (\(name)); use a different email or update that tester"
        case let .invalidGroup(group):
            return "group name \"\(group)\" is not allowed; use 1 to 64 letters, digits, spaces, dots, dashes or underscores"
        case let .testerNotFound(reference):
            return "no tester matches \"\(reference)\"; give a tester id, email or exact name from `betactl testers`"
        case let .ambiguousTester(name, ids):
            return "several testers are named \"\(name)\" (ids \(ids.map(String.init).joined(separator: ", "))); use the id or email instead"
        case let .deviceAlreadyRegistered(udid, tester):
            let owner = tester.map { "to \($0)" } ?? "without a tester"
            return "device \(udid) is already registered \(owner); a device can be registered only once, so remove it first with `betactl remove-device \(udid)`"
        case let .deviceNotFound(udid):
            return "no device \(udid) is registered; see `betactl devices` for the registered UDIDs"
        case let .deviceAlreadyRemoved(udid, day):
            return "device \(udid) was already removed on \(day); nothing to do"
        case let .familyRequired(udid):
            return "cannot tell what kind of device \(udid) is; add --model CODE (e.g. iPhone15,2) or --family with one of \(DeviceFamily.allCases.map(\.rawValue).joined(separator: ", "))"
        case let .unknownModel(code):
            return "model code \"\(code)\" is not recognised; use Apple's identifier such as iPhone15,2, iPad13,4, Watch6,1, AppleTV11,1, Mac14,2 or RealityDevice14,1, or give --family instead"
        case let .unknownFamily(name):
            return "\"\(name)\" is not a device family; use one of \(DeviceFamily.allCases.map(\.rawValue).joined(separator: ", "))"
        case let .modelFamilyMismatch(code, inferred, given):
            return "model \(code) is \(inferred.withArticle) but --family says \(given.rawValue); drop --family or fix the model code"
        case let .limitReached(udid, family, used, limit, removed, renews):
            let removedNote = removed == 0 ? "no removed devices are among them" : "\(removed) removed device\(removed == 1 ? "" : "s") still count\(removed == 1 ? "s" : "")"
            return "device \(udid) is \(family.withArticle): all \(used) of \(limit) \(family.displayName) slots of this membership year are used (\(removedNote) until \(renews)); slots free up only when the membership renews on \(renews)"
        }
    }

    /// Malformed values are invalid input; everything else is a refusal.
    public var category: ErrorCategory {
        switch self {
        case .emptyName, .nulInTesterName, .nulInDeviceName, .invalidEmail, .invalidGroup, .unknownModel, .unknownFamily, .modelFamilyMismatch, .familyRequired:
            return .invalidInput
        default:
            return .refused
        }
    }

    /// `name` with each NUL written `\u0000`, so the message shows where it is.
    static func visible(_ name: String) -> String {
        name.split(separator: "\u{0}", omittingEmptySubsequences: false).joined(separator: "\\u0000")
    }

    /// Refuses a NUL in a tester's (`device: false`) or device's name.
    static func checkNoNUL(_ name: String, device: Bool) throws(RosterError) {
        guard name.utf8.contains(0) else { return }
        throw device ? .nulInDeviceName(name) : .nulInTesterName(name)
    }
}
