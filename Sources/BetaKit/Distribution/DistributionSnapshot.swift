#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats

/// Everything testers' pages show, read from the database in one transaction: settings, current
/// testers (findable by the digest of their link token), their devices, every release with the
/// devices its profile provisions, and package sizes.
///
/// The roster is small by nature (Apple allows 100 devices per family), so the server keeps one
/// snapshot in memory and rebuilds it when the database changes; pages are then built without
/// touching SQLite.
public struct DistributionSnapshot: Sendable {
    /// The home's settings.
    public var settings: HomeSettings
    /// Current (not removed) testers by id.
    public var testers: [Int64: Tester]
    /// Every device ever registered to each tester (removed ones too), by tester id, in UDID order.
    public var devicesByTester: [Int64: [Device]]
    /// Every release, newest first, revoked ones included.
    public var releases: [Release]
    /// Which devices each release's profile provisions, by release id.
    public var coverage: [Int64: ProfileCoverage]
    /// The size in bytes of each release's package, by release id.
    public var packageSizes: [Int64: Int64]
    /// The identity enrolment profiles are signed with, when one was imported.
    public var signingIdentity: StoredSigningIdentity?
    /// Where the automatic provisioning flow stands for devices with work pending or stopped, by
    /// upper-cased UDID.
    public var provisioning: [String: DeviceProvisioning] = [:]
    private var testerIDByDigest: [String: Int64]

    /// Creates a snapshot from parts (tests build them directly).
    public init(settings: HomeSettings, testers: [Tester], devices: [Device], releases: [Release],
                coverage: [Int64: ProfileCoverage], packageSizes: [Int64: Int64]) {
        self.settings = settings
        self.testers = Dictionary(testers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.testerIDByDigest = Dictionary(testers.map { (InviteToken.digest($0.token), $0.id) }, uniquingKeysWith: { first, _ in first })
        var byTester: [Int64: [Device]] = [:]
        for device in devices { if let owner = device.testerID { byTester[owner, default: []].append(device) } }
        self.devicesByTester = byTester.mapValues { $0.sorted { $0.identifier.value < $1.identifier.value } }
        self.releases = releases.sorted { $0.id > $1.id }
        self.coverage = coverage
        self.packageSizes = packageSizes
    }

    /// The current tester whose link carries `token`, found by the token's SHA-256 digest.
    public func tester(token: String) -> Tester? {
        guard InviteToken.isPlausible(token) else { return nil }
        return testerIDByDigest[InviteToken.digest(token)].flatMap { testers[$0] }
    }

    /// The release with `id`, revoked or not.
    public func release(id: Int64) -> Release? { releases.first { $0.id == id } }

    /// The releases `tester` may install: not revoked, not superseded by a re-signed release, and
    /// targeted at everyone or at one of their groups; newest first.
    public func releases(offeredTo tester: Tester) -> [Release] {
        releases.filter { $0.revokedAt == nil && $0.supersededBy == nil && $0.isOffered(to: tester) }
    }

    /// Where the automatic flow stands for `device`, when work is pending or stopped.
    public func provisioning(of device: Device) -> DeviceProvisioning? { provisioning[device.identifier.value.uppercased()] }

    /// The tester's devices, active ones first.
    public func devices(of tester: Tester) -> [Device] {
        let all = devicesByTester[tester.id] ?? []
        return all.filter { $0.status == .active } + all.filter { $0.status == .removed }
    }
}

/// The devices a release's embedded profile provisions.
public struct ProfileCoverage: Sendable, Equatable {
    /// Whether the profile provisions every device (enterprise profiles).
    public var allDevices: Bool
    /// The provisioned UDIDs, normalised.
    public var udids: Set<String>
    /// False for releases published before betactl recorded coverage, until it is read from the package.
    public var isKnown: Bool

    /// Creates a coverage record.
    public init(allDevices: Bool, udids: Set<String>, isKnown: Bool) {
        self.allDevices = allDevices
        self.udids = udids
        self.isKnown = isKnown
    }

    /// Whether a build with this profile installs on `udid`; nil when unknown.
    public func includes(_ udid: DeviceIdentifier) -> Bool? {
        guard isKnown else { return nil }
        return allDevices || udids.contains(udid.value)
    }
}

extension Release {
    /// Whether the release is offered to `tester`: it targets everyone (no groups) or one of theirs.
    public func isOffered(to tester: Tester) -> Bool {
        groups.isEmpty || groups.contains { tester.groups.contains($0) }
    }
}
