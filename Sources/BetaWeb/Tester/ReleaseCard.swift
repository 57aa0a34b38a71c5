#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import Mustache

/// One release as a tester's page shows it: icon, name, version, size, date, profile expiry, notes, and
/// an Install button that either works or says why it cannot.
struct ReleaseCard: Sendable, MustacheRepresentable {
    var id: Int64
    var name: String
    var version: String
    var sizeText: String
    var dateText: String
    var expiryText: String?
    var iconURL: String
    var pageURL: String
    var installURL: String
    var manifestURL: String
    var notes: ReleaseNotes?
    /// Why the button is disabled for everyone (an expired profile), if it is.
    var disabledReason: String?
    /// Why this device cannot install the build, when the page knows which device it is on.
    var blockedReason: String?
    /// The same for an iPad, applied by the page's script when it detects iPadOS behind a Mac user agent.
    var padBlockedReason: String?
    /// Each active iOS device of the tester and whether this build installs on it.
    var deviceChecks: [(name: String, installs: Bool)]

    init(release: Release, snapshot: DistributionSnapshot, tester: Tester, urls: TesterURLs, client: ClientKind,
         placeholderIcon: String, now: Date) {
        id = release.id
        name = release.displayName ?? release.bundleID
        version = Self.versionLabel(release)
        sizeText = snapshot.packageSizes[release.id].map(Self.sizeLabel) ?? ""
        dateText = CalendarDate(release.createdAt).description
        iconURL = release.iconBlob == nil ? placeholderIcon : urls.icon(release.id)
        pageURL = urls.release(release.id)
        manifestURL = urls.manifest(release.id)
        installURL = TesterURLs.installLink(manifest: manifestURL)
        notes = release.notes.map(ReleaseNotes.init).flatMap { $0.paragraphs.isEmpty ? nil : $0 }
        if let expires = release.profileExpiresAt {
            let day = CalendarDate(expires).description
            if expires <= now {
                expiryText = "Profile expired on \(day)"
                disabledReason = "This build's provisioning profile expired on \(day), so iOS will not install it; ask for a new build."
            } else {
                expiryText = "Profile expires \(day)"
            }
        }
        let coverage = snapshot.coverage[release.id]
        let active = snapshot.devices(of: tester).filter { $0.status == .active && $0.family.isIOS }
        deviceChecks = active.compactMap { device in
            coverage?.includes(device.identifier).map { (device.name.isEmpty ? device.family.displayName : device.name, $0) }
        }
        let phoneBlock = Self.blockedReason(families: [.iphone, .ipod], devices: active, coverage: coverage, label: "iPhone")
        let padBlock = Self.blockedReason(families: [.ipad], devices: active, coverage: coverage, label: "iPad")
        switch client {
        case .iPhone: blockedReason = phoneBlock
        case .iPad: blockedReason = padBlock
        case .macOrIPad, .other: blockedReason = nil
        }
        padBlockedReason = client == .macOrIPad ? padBlock : nil
    }

    /// The page knows the device is missing from the profile when every registered device of the
    /// family the browser reports is missing; with none registered it cannot know the device's UDID.
    static func blockedReason(families: Set<DeviceFamily>, devices: [Device], coverage: ProfileCoverage?, label: String) -> String? {
        let relevant = devices.filter { families.contains($0.family) }
        guard !relevant.isEmpty, let coverage,
              relevant.allSatisfy({ coverage.includes($0.identifier) == false }) else { return nil }
        let names = relevant.map { $0.name.isEmpty ? $0.family.displayName : "“\($0.name)”" }
        let which = relevant.count == 1 ? "Your \(label) \(names[0]) is" : "Your \(label)s (\(names.joined(separator: ", "))) are"
        return "\(which) not in this build's provisioning profile, so iOS will refuse to install it. It will install from the next build that includes it."
    }

    /// `1.4 (213)`, or whichever of the two the build has.
    static func versionLabel(_ release: Release) -> String {
        switch (release.version, release.build) {
        case let (version?, build?) where version != build: "\(version) (\(build))"
        case let (version?, _): version
        case let (nil, build?): build
        case (nil, nil): "build \(release.id)"
        }
    }

    /// Decimal units, as iOS shows app sizes: `12.3 MB`.
    static func sizeLabel(_ bytes: Int64) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if unit == 0 { return "\(bytes) bytes" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    var mustacheValue: MustacheValue {
        var fields: [String: MustacheValue] = [
            "id": .string(String(id)), "name": .string(name), "version": .string(version),
            "size": sizeText.isEmpty ? .null : .string(sizeText), "hasDeviceChecks": .bool(!deviceChecks.isEmpty),
            "date": .string(dateText), "iconURL": .string(iconURL), "pageURL": .string(pageURL),
            "installURL": .string(installURL), "manifestURL": .string(manifestURL),
            "deviceChecks": .list(deviceChecks.map { ["name": .string($0.name), "installs": .bool($0.installs)] }),
        ]
        fields["expiry"] = expiryText.map(MustacheValue.string) ?? .null
        fields["disabledReason"] = disabledReason.map(MustacheValue.string) ?? .null
        fields["blockedReason"] = blockedReason.map(MustacheValue.string) ?? .null
        fields["padBlockedReason"] = padBlockedReason.map(MustacheValue.string) ?? .null
        fields["canInstall"] = .bool(disabledReason == nil && blockedReason == nil)
        fields["notes"] = notes.map { notes in
            .list(notes.paragraphs.map { lines in
                ["lines": .list(lines.map { pieces in
                    ["pieces": .list(pieces.map { piece in
                        switch piece {
                        case .text(let text): ["text": .string(text)]
                        case .link(let url): ["link": .string(url)]
                        }
                    })]
                })]
            })
        } ?? .null
        return .object(fields)
    }
}

extension DeviceFamily {
    /// Devices that install iOS or iPadOS apps over the air.
    var isIOS: Bool { self == .iphone || self == .ipad || self == .ipod }
}
