extension ProfileRosterCheck {
    /// The warning about devices testers registered themselves that are not with Apple yet.
    static func pendingFinding(_ pending: [Device]) -> ProfileRosterReport.Finding? {
        guard !pending.isEmpty else { return nil }
        let names = pending.prefix(10).map { device in
            let owner = device.testerName.map { "\($0): " } ?? ""
            return "\(owner)\(device.name.isEmpty ? device.family.displayName : device.name) (\(device.identifier))"
        }
        let more = pending.count > 10 ? " and \(pending.count - 10) more" : ""
        let count = pending.count == 1 ? "1 device registered from a tester's device is" : "\(pending.count) devices registered from testers' devices are"
        return .init(severity: .warning, message: "\(count) pending, in no ad hoc profile yet: \(names.joined(separator: ", "))\(more); upload \(pending.count == 1 ? "it" : "them") with `betactl export-devices --pending --output pending.txt`, then regenerate the profile and import it")
    }
}
