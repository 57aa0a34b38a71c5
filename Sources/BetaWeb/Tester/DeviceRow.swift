import AppleFormats
import BetaKit
import Mustache

/// One of the tester's devices as their page lists it, with what the newest build means for it.
struct DeviceRow: Sendable, Equatable, MustacheRepresentable {
    /// Where the device stands.
    enum Status: String, Sendable {
        /// Active and in the newest release's profile: that build installs on it.
        case ready
        /// Active but not in the newest release's profile.
        case notInProfile = "not-in-profile"
        /// Registered from the device itself, and in no ad hoc profile yet.
        case pending
        /// Active; no release is offered yet, or its profile's device list is unknown.
        case registered
        /// Removed from the roster.
        case removed
        /// Being registered with Apple by the automatic flow.
        case registering
        /// Registered; the automatic flow is making its profile and build.
        case preparing
        /// The automatic flow stopped for it; the team was told.
        case provisioningFailed = "provisioning-failed"
    }

    /// How often a page showing automatic work in progress reloads itself, seconds.
    static let refreshSeconds = 10

    var name: String
    var model: String
    var udidSuffix: String
    var status: Status
    var statusText: String

    init(device: Device, newest: Release?, coverage: ProfileCoverage?, provisioning: DeviceProvisioning? = nil) {
        name = device.name.isEmpty ? device.family.displayName : device.name
        model = device.model.map(DeviceModelName.displayName(forModelCode:)) ?? device.family.displayName
        udidSuffix = String(device.identifier.value.suffix(6))
        let included = newest.flatMap { _ in coverage?.includes(device.identifier) }
        if device.status == .removed {
            status = .removed
            statusText = "Removed"
        } else if let provisioning {
            (status, statusText) = Self.describe(provisioning)
        } else if let newest, included == true {
            status = .ready
            statusText = "Ready: installs \(ReleaseCard.versionLabel(newest))"
        } else if device.isPending {
            status = .pending
            statusText = "Pending: registered, waiting for the next build whose profile includes it"
        } else if let newest, included == false {
            status = .notInProfile
            statusText = "Not in the profile of \(ReleaseCard.versionLabel(newest)): it will install from the next build that includes it"
        } else {
            status = .registered
            statusText = "Registered"
        }
    }

    /// Whether automatic work for the device is still going (the page reloads itself meanwhile).
    var isPending: Bool { status == .registering || status == .preparing }

    /// The status and words for where the automatic flow stands.
    static func describe(_ provisioning: DeviceProvisioning) -> (Status, String) {
        switch provisioning {
        case .registering: (.registering, "Being registered with Apple…")
        case .preparing: (.preparing, "Preparing your build…")
        case .failed: (.provisioningFailed, "A build for this device could not be prepared; the team has been told")
        }
    }

    var mustacheValue: MustacheValue {
        ["name": .string(name), "model": .string(model), "udidSuffix": .string(udidSuffix),
         "status": .string(status.rawValue), "statusText": .string(statusText)]
    }
}
