#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// How a provisioning profile compares with the roster and the calendar.
public struct ProfileRosterReport: Sendable {
    /// One line of the report.
    public struct Finding: Sendable, Equatable, CustomStringConvertible {
        /// Errors make `check-profile` fail; warnings do not.
        public enum Severity: String, Sendable, Codable {
            /// Something testers will hit now.
            case error
            /// Something to fix soon.
            case warning
        }

        /// How serious the finding is.
        public var severity: Severity
        /// A sentence naming what and the fix.
        public var message: String

        /// "error: …" or "warning: …".
        public var description: String { "\(severity.rawValue): \(message)" }
    }

    /// The profile checked.
    public var profile: ProvisioningProfile
    /// Active roster devices the profile does not include: their testers cannot install.
    public var missingActiveDevices: [Device]
    /// Devices in the profile that the roster does not know.
    public var unknownDevices: [DeviceIdentifier]
    /// Devices in the profile that were removed from the roster.
    public var removedDevices: [Device]
    /// Devices registered by enrolment that no ad hoc profile includes yet (see `Device.isPending`).
    public var pendingDevices: [Device] = []
    /// Whole days until the profile expires (negative once expired).
    public var daysUntilExpiry: Int
    /// Developer certificates that expire within the warning window or have expired, with days left.
    public var expiringCertificates: [(certificate: Certificate, daysLeft: Int)]
    /// Every finding, errors first.
    public var findings: [Finding]

    /// Whether any finding is an error.
    public var hasErrors: Bool { findings.contains { $0.severity == .error } }
}

/// Compares a profile with the roster's devices.
public enum ProfileRosterCheck {
    /// Builds the report; `warningDays` is how close an expiry must be to warn.
    public static func check(profile: ProvisioningProfile, devices: [Device], now: Date, warningDays: Int = 14) -> ProfileRosterReport {
        let inProfile = Set(profile.provisionedDeviceIdentifiers)
        let roster = Dictionary(devices.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        var missing: [Device] = []
        var removed: [Device] = []
        var unknown: [DeviceIdentifier] = []
        if !profile.provisionsAllDevices {
            missing = devices.filter { $0.status == .active && !inProfile.contains($0.identifier) }
                .sorted { ($0.testerName ?? "", $0.identifier) < ($1.testerName ?? "", $1.identifier) }
            for udid in inProfile.sorted() {
                if let device = roster[udid] {
                    if device.status == .removed { removed.append(device) }
                } else {
                    unknown.append(udid)
                }
            }
        }
        let days = Int((profile.expirationDate.timeIntervalSince(now) / 86400).rounded(.down))
        var findings: [ProfileRosterReport.Finding] = []
        if profile.isExpired(at: now) {
            findings.append(.init(severity: .error, message: "the profile \"\(profile.name)\" expired on \(day(profile.expirationDate)); regenerate it in the Apple Developer portal and import it again"))
        } else if days < warningDays {
            findings.append(.init(severity: .warning, message: "the profile \"\(profile.name)\" expires in \(days) day\(days == 1 ? "" : "s") (\(day(profile.expirationDate))); regenerate it before then"))
        }
        let byTester = Dictionary(grouping: missing) { $0.testerName ?? "(no tester)" }
        for tester in byTester.keys.sorted() {
            let list = (byTester[tester] ?? []).map { "\($0.name.isEmpty ? $0.identifier.value : "\($0.name) (\($0.identifier))")" }
            findings.append(.init(severity: .warning, message: "\(tester) cannot install builds signed with this profile: \(list.joined(separator: ", ")) \(list.count == 1 ? "is" : "are") not in it; regenerate the profile with every registered device"))
        }
        if !removed.isEmpty {
            findings.append(.init(severity: .warning, message: "the profile still includes \(removed.count) device\(removed.count == 1 ? "" : "s") removed from the roster: \(removed.map(\.identifier.value).joined(separator: ", "))"))
        }
        if !unknown.isEmpty {
            findings.append(.init(severity: .warning, message: "the profile includes \(unknown.count) device\(unknown.count == 1 ? "" : "s") the roster does not know: \(unknown.map(\.value).joined(separator: ", ")); import them with import-devices or ignore"))
        }
        let pending = devices.filter(\.isPending)
        if let finding = pendingFinding(pending) { findings.append(finding) }
        var certificates: [(Certificate, Int)] = []
        for certificate in profile.developerCertificates {
            let left = Int((certificate.notAfter.timeIntervalSince(now) / 86400).rounded(.down))
            guard left < warningDays else { continue }
            certificates.append((certificate, left))
            let name = certificate.subject.commonName ?? certificate.subject.description
            if left < 0 {
                findings.append(.init(severity: .warning, message: "the certificate \"\(name)\" (serial \(certificate.serialNumberHex)) expired on \(day(certificate.notAfter)); builds signed with it no longer install"))
            } else {
                findings.append(.init(severity: .warning, message: "the certificate \"\(name)\" (serial \(certificate.serialNumberHex)) expires in \(left) day\(left == 1 ? "" : "s"); create a new one and regenerate the profile"))
            }
        }
        findings.sort { $0.severity == .error && $1.severity != .error }
        return ProfileRosterReport(profile: profile, missingActiveDevices: missing, unknownDevices: unknown, removedDevices: removed,
                                   pendingDevices: pending, daysUntilExpiry: days, expiringCertificates: certificates, findings: findings)
    }

    static func day(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle().year().month().day())
    }
}
