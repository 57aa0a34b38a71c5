#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The settings chosen at `betactl init` and changeable by re-running it.
public struct HomeSettings: Sendable, Equatable {
    /// The Apple Developer team id (ten uppercase letters or digits), if set.
    public var teamID: String?
    /// The day the Apple Developer membership renews; it fixes when device slots come back.
    public var membershipRenewal: CalendarDate?
    /// The base URL testers reach the server at, without a trailing slash.
    public var publicURL: String
    /// When the home was created.
    public var createdAt: Date
    /// The name shown on testers' pages and in enrollment profiles.
    public var brandName: String = HomeSettings.defaultBrandName
    /// The accent colour of testers' pages, `#rrggbb`.
    public var brandColor: String = HomeSettings.defaultBrandColor
    /// True for a sandbox made by `betactl demo`, which `demo --dir` may reuse.
    public var isDemo = false

    /// The URL used when `--public-url` was never given.
    public static let defaultPublicURL = "http://127.0.0.1:8080"
    /// The brand name used when `--brand-name` was never given.
    public static let defaultBrandName = "Beta"
    /// The accent colour used when `--brand-color` was never given.
    public static let defaultBrandColor = "#0a66c2"

    /// The membership year containing `now`: from the renewal date, or else from the anniversary of `init`.
    public func membershipYear(at now: Date) -> MembershipYear {
        let anchor = membershipRenewal ?? CalendarDate(createdAt)
        return MembershipYear(containing: CalendarDate(now), anniversary: anchor, isInferred: membershipRenewal == nil)
    }
}

/// Changes requested by `betactl init`; nil fields are left alone.
public struct HomeSettingsChange: Sendable, Equatable {
    /// A new team id.
    public var teamID: String?
    /// A new membership renewal date.
    public var membershipRenewal: CalendarDate?
    /// A new public URL.
    public var publicURL: String?
    /// A new brand name.
    public var brandName: String?
    /// A new brand colour (`#rgb` or `#rrggbb`).
    public var brandColor: String?
    /// Marks the home as a `demo` sandbox.
    public var isDemo: Bool?

    /// Creates a change; every field defaults to "leave as is".
    public init(teamID: String? = nil, membershipRenewal: CalendarDate? = nil, publicURL: String? = nil,
                brandName: String? = nil, brandColor: String? = nil, isDemo: Bool? = nil) {
        self.teamID = teamID
        self.membershipRenewal = membershipRenewal
        self.publicURL = publicURL
        self.brandName = brandName
        self.brandColor = brandColor
        self.isDemo = isDemo
    }

    /// Checks the team id and URL, returning them normalised.
    public func validated() throws(HomeError) -> HomeSettingsChange {
        var result = self
        if let team = teamID {
            let upper = team.uppercased()
            guard upper.utf8.count == 10, upper.utf8.allSatisfy({ (48 ... 57).contains($0) || (65 ... 90).contains($0) }) else {
                throw HomeError.invalidTeamID(team)
            }
            result.teamID = upper
        }
        if let url = publicURL {
            result.publicURL = try Self.normalise(publicURL: url)
        }
        if let name = brandName {
            let trimmed = name.trimmed
            guard (1 ... 60).contains(trimmed.count), trimmed.unicodeScalars.allSatisfy({ !$0.properties.isWhitespace || $0 == " " }),
                  !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw HomeError.invalidBrandName(name)
            }
            result.brandName = trimmed
        }
        if let color = brandColor {
            result.brandColor = try Self.normalise(brandColor: color)
        }
        return result
    }

    /// `#rgb` or `#rrggbb` (the `#` optional, any case) as lowercase `#rrggbb`.
    static func normalise(brandColor color: String) throws(HomeError) -> String {
        var hex = color.trimmed.lowercased()
        if hex.hasPrefix("#") { hex.removeFirst() }
        guard hex.count == 3 || hex.count == 6, hex.allSatisfy({ "0123456789abcdef".contains($0) }) else {
            throw HomeError.invalidBrandColor(color)
        }
        if hex.count == 3 { hex = hex.map { "\($0)\($0)" }.joined() }
        return "#" + hex
    }

    static func normalise(publicURL url: String) throws(HomeError) -> String {
        var trimmed = url.trimmed
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        let lower = trimmed.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") { rest = trimmed.dropFirst(8) } else if lower.hasPrefix("http://") { rest = trimmed.dropFirst(7) } else {
            throw HomeError.invalidPublicURL(url, reason: "it must start with https:// (or http:// for local testing)")
        }
        let host = rest.prefix { $0 != "/" && $0 != ":" }
        guard !host.isEmpty, rest.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "?" && $0 != "#" }) else {
            throw HomeError.invalidPublicURL(url, reason: "it needs a host name and no spaces, query or fragment")
        }
        return trimmed
    }
}

/// A year of Apple Developer membership, during which device slots are counted.
public struct MembershipYear: Sendable, Equatable {
    /// The first day of the year.
    public var start: CalendarDate
    /// The day the next year starts and removed devices' slots are freed.
    public var renews: CalendarDate
    /// True when no renewal date was set and the anniversary of `init` is used instead.
    public var isInferred: Bool

    /// The year containing `today`, whose boundaries fall on the anniversaries of `anniversary`.
    public init(containing today: CalendarDate, anniversary: CalendarDate, isInferred: Bool) {
        let thisYear = anniversary.anniversary(in: today.year)
        start = thisYear <= today ? thisYear : anniversary.anniversary(in: today.year - 1)
        renews = anniversary.anniversary(in: start.year + 1)
        self.isInferred = isInferred
    }
}
