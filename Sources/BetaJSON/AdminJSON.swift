#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit

/// JSON shapes of tokens, settings and the API's list pages, printed by the CLI's `--json` and
/// answered by the API. Field names are part of betactl's interface: add fields, never rename them.
public enum AdminJSON {
    /// An API token (never its secret).
    public struct TokenJSON: Encodable, Sendable {
        /// The token's number.
        public var id: Int64
        /// Its name.
        public var name: String
        /// `read`, `write` or `admin`.
        public var scope: String
        /// When it was created (ISO 8601).
        public var created: String
        /// When it was last used, to the hour (ISO 8601).
        public var lastUsed: String?
        /// When it was revoked (ISO 8601).
        public var revoked: String?

        /// Creates the shape from its fields.
        public init(id: Int64, name: String, scope: String, created: String, lastUsed: String? = nil, revoked: String? = nil) {
            self.id = id
            self.name = name
            self.scope = scope
            self.created = created
            self.lastUsed = lastUsed
            self.revoked = revoked
        }
    }

    /// A token just created, with the secret shown this once.
    public struct CreatedTokenJSON: Encodable, Sendable {
        /// The token.
        public var token: TokenJSON
        /// The secret to send as `Authorization: Bearer <secret>`.
        public var secret: String

        /// Creates the shape from its fields.
        public init(token: TokenJSON, secret: String) {
            self.token = token
            self.secret = secret
        }
    }

    /// What `token list --json` prints.
    public struct TokenListJSON: Encodable, Sendable {
        /// The tokens.
        public var tokens: [TokenJSON]
        /// The next page's cursor (API only).
        public var nextCursor: String?

        /// Creates the shape from its fields.
        public init(tokens: [TokenJSON], nextCursor: String? = nil) {
            self.tokens = tokens
            self.nextCursor = nextCursor
        }
    }

    /// The home's settings.
    public struct SettingsJSON: Encodable, Sendable {
        /// The Apple Developer team id.
        public var teamId: String?
        /// The day the membership renews (YYYY-MM-DD).
        public var membershipRenewal: String?
        /// The base URL testers reach the server at.
        public var publicURL: String
        /// The name testers' pages show.
        public var brandName: String
        /// The accent colour, `#rrggbb`.
        public var brandColor: String
        /// When the home was created (ISO 8601).
        public var created: String
        /// The membership year slots are counted in now.
        public var membershipYear: RosterJSON.MembershipYearJSON

        /// Creates the shape from its fields.
        public init(teamId: String? = nil, membershipRenewal: String? = nil, publicURL: String, brandName: String, brandColor: String, created: String, membershipYear: RosterJSON.MembershipYearJSON) {
            self.teamId = teamId
            self.membershipRenewal = membershipRenewal
            self.publicURL = publicURL
            self.brandName = brandName
            self.brandColor = brandColor
            self.created = created
            self.membershipYear = membershipYear
        }
    }

    /// One page of testers.
    public struct TesterListJSON: Encodable, Sendable {
        /// The testers.
        public var testers: [RosterJSON.TesterJSON]
        /// The next page's cursor; absent on the last page.
        public var nextCursor: String?

        /// Creates the shape from its fields.
        public init(testers: [RosterJSON.TesterJSON], nextCursor: String? = nil) {
            self.testers = testers
            self.nextCursor = nextCursor
        }
    }

    /// One page of devices, with the slot usage of every family.
    public struct DeviceListJSON: Encodable, Sendable {
        /// The devices.
        public var devices: [RosterJSON.DeviceJSON]
        /// Usage by family.
        public var usage: [String: RosterJSON.UsageJSON]
        /// The membership year counted.
        public var membershipYear: RosterJSON.MembershipYearJSON
        /// The profile each device's `inProfile` was checked against: the ad hoc profile that
        /// expires last (absent when none is imported).
        public var profile: ArchiveJSON.ProfileJSON?
        /// The next page's cursor; absent on the last page.
        public var nextCursor: String?

        /// Creates the shape from its fields.
        public init(devices: [RosterJSON.DeviceJSON], usage: [String: RosterJSON.UsageJSON], membershipYear: RosterJSON.MembershipYearJSON, profile: ArchiveJSON.ProfileJSON? = nil, nextCursor: String? = nil) {
            self.devices = devices
            self.usage = usage
            self.membershipYear = membershipYear
            self.profile = profile
            self.nextCursor = nextCursor
        }
    }

    /// One page of profiles.
    public struct ProfileListJSON: Encodable, Sendable {
        /// The profiles, newest expiry first.
        public var profiles: [ArchiveJSON.ProfileJSON]
        /// The next page's cursor; absent on the last page.
        public var nextCursor: String?

        /// Creates the shape from its fields.
        public init(profiles: [ArchiveJSON.ProfileJSON], nextCursor: String? = nil) {
            self.profiles = profiles
            self.nextCursor = nextCursor
        }
    }

    /// A profile stored by an upload.
    public struct ProfileImportJSON: Encodable, Sendable {
        /// The profile.
        public var profile: ArchiveJSON.ProfileJSON
        /// False when a profile with its UUID was already imported and was replaced.
        public var isNew: Bool

        /// Creates the shape from its fields.
        public init(profile: ArchiveJSON.ProfileJSON, isNew: Bool) {
            self.profile = profile
            self.isNew = isNew
        }
    }

    /// One page of releases.
    public struct ReleaseListJSON: Encodable, Sendable {
        /// The releases, newest first.
        public var releases: [ArchiveJSON.ReleaseJSON]
        /// The next page's cursor; absent on the last page.
        public var nextCursor: String?

        /// Creates the shape from its fields.
        public init(releases: [ArchiveJSON.ReleaseJSON], nextCursor: String? = nil) {
            self.releases = releases
            self.nextCursor = nextCursor
        }
    }

    /// One tester's page for a release.
    public struct InstallPageJSON: Encodable, Sendable {
        /// The tester's number.
        public var testerId: Int64
        /// The tester's name.
        public var tester: String
        /// The release's page under the tester's secret link, where the Install button is.
        public var url: String

        /// Creates the shape from its fields.
        public init(testerId: Int64, tester: String, url: String) {
            self.testerId = testerId
            self.tester = tester
            self.url = url
        }
    }

    /// What `POST /api/v1/releases` answers.
    public struct CreatedReleaseJSON: Encodable, Sendable {
        /// The new release.
        public var release: ArchiveJSON.ReleaseJSON
        /// The release's page for each tester it is offered to (testers install from their own link).
        public var installPages: [InstallPageJSON]
        /// The release's page in the dashboard.
        public var dashboard: String
        /// What validation warned about (devices missing from the profile, symbols released without).
        public var warnings: [String]
        /// How many symbol slices were newly archived.
        public var addedSymbols: Int
        /// The earlier release of the same package, when `again` published it once more.
        public var earlierRelease: Int64?

        /// Creates the shape from its fields.
        public init(release: ArchiveJSON.ReleaseJSON, installPages: [InstallPageJSON], dashboard: String, warnings: [String], addedSymbols: Int, earlierRelease: Int64? = nil) {
            self.release = release
            self.installPages = installPages
            self.dashboard = dashboard
            self.warnings = warnings
            self.addedSymbols = addedSymbols
            self.earlierRelease = earlierRelease
        }
    }

    /// One page of archived symbols.
    public struct SymbolListJSON: Encodable, Sendable {
        /// The symbols.
        public var symbols: [ArchiveJSON.SymbolJSON]
        /// The next page's cursor; absent on the last page.
        public var nextCursor: String?

        /// Creates the shape from its fields.
        public init(symbols: [ArchiveJSON.SymbolJSON], nextCursor: String? = nil) {
            self.symbols = symbols
            self.nextCursor = nextCursor
        }
    }

    /// One page of release executables without symbols.
    public struct MissingSymbolListJSON: Encodable, Sendable {
        /// The slices.
        public var missing: [ArchiveJSON.MissingSymbolJSON]
        /// The next page's cursor; absent on the last page.
        public var nextCursor: String?

        /// Creates the shape from its fields.
        public init(missing: [ArchiveJSON.MissingSymbolJSON], nextCursor: String? = nil) {
            self.missing = missing
            self.nextCursor = nextCursor
        }
    }

    /// A symbol slice named by UUID and architecture.
    public struct SymbolKeyJSON: Encodable, Sendable {
        /// The image UUID.
        public var uuid: String
        /// The architecture.
        public var arch: String

        /// Creates the shape from its fields.
        public init(uuid: String, arch: String) {
            self.uuid = uuid
            self.arch = arch
        }
    }

    /// What an upload of dSYMs did.
    public struct SymbolUploadJSON: Encodable, Sendable {
        /// Slices newly archived.
        public var added: [SymbolKeyJSON]
        /// Slices that were already archived.
        public var alreadyPresent: [SymbolKeyJSON]
        /// Damaged archived slices that an intact upload replaced.
        public var replaced: [SymbolKeyJSON]
        /// Releases with an executable among the added or replaced slices.
        public var releases: [Int64]

        /// Creates the shape from its fields.
        public init(added: [SymbolKeyJSON], alreadyPresent: [SymbolKeyJSON], replaced: [SymbolKeyJSON], releases: [Int64]) {
            self.added = added
            self.alreadyPresent = alreadyPresent
            self.replaced = replaced
            self.releases = releases
        }
    }

    /// The JSON of a token.
    public static func token(_ token: AccessToken) -> TokenJSON {
        TokenJSON(id: token.id, name: token.name, scope: token.scope.rawValue, created: Timestamp.string(token.createdAt),
                  lastUsed: token.lastUsedAt.map(Timestamp.string), revoked: token.revokedAt.map(Timestamp.string))
    }

    /// The JSON of a token just created, with its secret.
    public static func created(_ created: CreatedAccessToken) -> CreatedTokenJSON {
        CreatedTokenJSON(token: token(created.token), secret: created.secret)
    }

    /// The JSON of a list of tokens (one page, or all of them for the CLI).
    public static func tokens(_ tokens: [AccessToken], nextCursor: String? = nil) -> TokenListJSON {
        TokenListJSON(tokens: tokens.map(token), nextCursor: nextCursor)
    }

    /// The JSON of the settings, with the membership year containing `now`.
    public static func settings(_ settings: HomeSettings, now: Date) -> SettingsJSON {
        let year = settings.membershipYear(at: now)
        return SettingsJSON(teamId: settings.teamID, membershipRenewal: settings.membershipRenewal?.description,
                            publicURL: settings.publicURL, brandName: settings.brandName, brandColor: settings.brandColor,
                            created: Timestamp.string(settings.createdAt),
                            membershipYear: RosterJSON.MembershipYearJSON(start: year.start.description, renews: year.renews.description,
                                                                          inferredFromInit: year.isInferred))
    }

    /// The JSON of a symbol key.
    public static func key(_ key: SymbolKey) -> SymbolKeyJSON {
        SymbolKeyJSON(uuid: key.uuid.uuidString, arch: key.architecture.name)
    }
}
