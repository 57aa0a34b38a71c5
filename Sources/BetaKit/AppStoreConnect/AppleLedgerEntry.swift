import AppleFormats

/// One family's slot count as Apple keeps it beside the roster's, and why they differ.
public struct AppleLedgerEntry: Sendable, Equatable {
    /// The family.
    public var family: DeviceFamily
    /// Slots Apple counts this membership year: its enabled devices of the class, and disabled
    /// ones added since the year began.
    public var apple: Int
    /// Slots the roster's ledger counts.
    public var roster: Int
    /// Of Apple's, devices the roster does not have (or has removed).
    public var onlyAtApple: Int
    /// Of the roster's, devices not registered at Apple.
    public var onlyInRoster: Int

    /// Apple's count less the roster's.
    public var difference: Int { apple - roster }

    /// Nil when the two agree; else a sentence saying by how much and why.
    public var explanation: String? {
        guard difference != 0 || onlyAtApple != 0 || onlyInRoster != 0 else { return nil }
        var reasons: [String] = []
        if onlyAtApple > 0 { reasons.append("\(onlyAtApple) registered at Apple \(onlyAtApple == 1 ? "is" : "are") not active in the roster") }
        if onlyInRoster > 0 { reasons.append("\(onlyInRoster) in the roster \(onlyInRoster == 1 ? "is" : "are") not registered at Apple (`betactl apple register --approved`)") }
        if reasons.isEmpty { reasons.append("removed devices are counted differently (Apple counts a disabled device only in the year it was added)") }
        let how = difference == 0 ? "the same number" : difference > 0 ? "\(difference) more" : "\(-difference) fewer"
        return "Apple counts \(apple) \(family.displayName) slot\(apple == 1 ? "" : "s"), \(how) than the roster's \(roster): " + reasons.joined(separator: "; ")
    }
}
