/// The schemas of the API's documents (`#/components/schemas`), one per JSON shape in
/// `RosterJSON`, `ArchiveJSON` and `AdminJSON`. Fields that may be absent are not `required`
/// (absent, never null). An integration test validates real answers against these schemas and
/// fails on any field a schema does not list, so they stay exact as the shapes grow.
enum APISchemas {
    static let families = ["iphone", "ipad", "ipod", "watch", "tv", "mac", "vision"]
    static let profileTypes = ["ad-hoc", "development", "app-store", "enterprise"]
    static let scopes = ["read", "write", "admin"]

    /// Every named schema. A new area (crash reports, say) adds its dictionary to this list.
    static var all: [String: JSONSchema] {
        [roster, archive, admin, requests, APIController.crashSchemas, crashes, APIController.deviceRequestSchemas, APIController.appleSchemas, APIController.jobSchemas, APIController.updateSchemas, APIController.webhookSchemas].reduce(into: [:]) { all, area in all.merge(area) { first, _ in first } }
    }

    /// How clients authenticate (`#/components/securitySchemes`).
    static var securitySchemes: [String: JSONValue] {
        ["bearer": ["type": "http", "scheme": "bearer", "description": "An API token made with `betactl token create`."]]
            .merging(APIController.crashSecuritySchemes) { first, _ in first }
            .merging(APIController.updateSecuritySchemes) { first, _ in first }
    }

    static var roster: [String: JSONSchema] {
        [
            "Tester": .object([
                .required("id", .integer(minimum: 1)), .required("name", .text), .optional("email", .text),
                .required("groups", .array(.text)),
                .required("page", .string(description: "The tester's private page: `<base>/t/<token>`. Treat it as a secret.", format: "uri")),
                .required("created", .timestamp), .optional("devices", .array(.ref("Device"))),
            ], description: "A tester and, in lists and on their own, their devices."),
            "Device": .object([
                .required("udid", .text), .required("name", .text), .required("family", .string(values: families)),
                .optional("model", .text), .optional("tester", .text), .optional("testerId", .integer()),
                .required("status", .string(values: ["active", "removed"])), .required("added", .timestamp), .optional("removed", .timestamp),
                .required("pending", .boolean(description: "True when the tester registered this active device from the device itself and no ad hoc profile betactl has seen includes it yet: it still has to be registered with Apple (see `GET /devices/pending`).")),
                .optional("inProfile", .boolean(description: "Whether the current ad hoc profile provisions this active device.")),
            ]),
            "Usage": .object([
                .required("used", .integer(minimum: 0)), .required("limit", .integer(minimum: 0)),
                .required("removed", .integer(description: "Removed devices that still hold a slot.", minimum: 0)),
                .required("renews", .day),
            ]),
            "MembershipYear": .object([.required("start", .day), .required("renews", .day), .required("inferredFromInit", .boolean())]),
            "TesterList": .object([.required("testers", .array(.ref("Tester"))), .optional("nextCursor", .text)]),
            "DeviceList": .object([
                .required("devices", .array(.ref("Device"))),
                .required("usage", .object([], description: "Slot usage by family.", additional: .ref("Usage"))),
                .required("membershipYear", .ref("MembershipYear")),
                .optional("profile", .ref("Profile"), "The profile `inProfile` was checked against."),
                .optional("nextCursor", .text),
            ]),
        ]
    }

    static var archive: [String: JSONSchema] {
        [
            "Profile": .object([
                .required("uuid", .text), .required("name", .text), .required("team", .text), .optional("applicationIdentifier", .text),
                .required("type", .string(values: profileTypes)), .optional("devices", .integer(minimum: 0)),
                .required("expires", .timestamp), .required("imported", .timestamp),
            ]),
            "MissingDevice": .object([.required("udid", .text), .required("name", .text), .optional("tester", .text)]),
            "ProfileList": .object([.required("profiles", .array(.ref("Profile"))), .optional("nextCursor", .text)]),
            "ProfileImport": .object([.required("profile", .ref("Profile")), .required("isNew", .boolean())]),
            "ProfileCheck": .object([
                .required("profile", .ref("Profile")), .required("daysUntilExpiry", .integer()),
                .required("missingDevices", .array(.ref("MissingDevice"))),
                .required("pendingDevices", .array(.ref("MissingDevice"), description: "Devices testers registered themselves that no ad hoc profile includes yet.")),
                .required("unknownDevices", .array(.text)), .required("removedDevices", .array(.text)),
                .required("certificates", .array(.object([
                    .optional("commonName", .text), .required("subject", .text), .required("serial", .text),
                    .required("notBefore", .timestamp), .required("notAfter", .timestamp), .required("sha1", .text),
                ]))),
                .required("findings", .array(.object([.required("severity", .string(values: ["error", "warning", "info"])), .required("message", .text)]))),
                .required("ok", .boolean()),
            ]),
            "Release": .object([
                .required("id", .integer(minimum: 1)), .required("bundleId", .text), .optional("name", .text), .optional("version", .text),
                .optional("build", .text), .optional("minimumOS", .text), .required("source", .text), .required("sha256", .text),
                .optional("profile", .text), .optional("profileType", .string(values: profileTypes)), .optional("profileExpires", .timestamp),
                .required("groups", .array(.text)),
                .required("offeredTo", .object([
                    .required("everyone", .boolean()), .required("groups", .array(.text)),
                    .required("testers", .array(.object([.required("id", .integer()), .required("name", .text)]))),
                ])),
                .optional("notes", .text), .required("created", .timestamp), .optional("revoked", .timestamp),
                .optional("resignedFrom", .integer(minimum: 1)),
                .optional("supersededBy", .integer(minimum: 1)),
                .optional("slices", .array(.object([
                    .required("path", .text), .required("kind", .text), .optional("bundleId", .text), .required("arch", .text),
                    .optional("uuid", .text), .optional("minimumOS", .text), .required("hasSymbols", .boolean()),
                ]))),
                .optional("downloads", .array(.object([
                    .optional("testerId", .integer()), .optional("tester", .text), .optional("udid", .text), .optional("device", .text),
                    .required("at", .timestamp),
                ]))),
                .optional("downloadCount", .integer(minimum: 0)),
            ]),
            "ReleaseList": .object([.required("releases", .array(.ref("Release"))), .optional("nextCursor", .text)]),
            "CreatedRelease": .object([
                .required("release", .ref("Release")),
                .required("installPages", .array(.object([
                    .required("testerId", .integer()), .required("tester", .text), .required("url", .string(format: "uri")),
                ])), "The release's page under each offered tester's private link."),
                .required("dashboard", .string(format: "uri")), .required("warnings", .array(.text)),
                .required("addedSymbols", .integer(minimum: 0)), .optional("earlierRelease", .integer()),
            ]),
            "Symbol": .object([
                .required("uuid", .text), .required("arch", .text), .required("dsym", .text), .required("file", .text),
                .required("path", .text), .required("added", .timestamp), .required("releases", .array(.integer())),
            ]),
            "SymbolList": .object([.required("symbols", .array(.ref("Symbol"))), .optional("nextCursor", .text)]),
            "MissingSymbol": .object([.required("release", .integer()), .required("path", .text), .required("arch", .text), .optional("uuid", .text)]),
            "MissingSymbolList": .object([.required("missing", .array(.ref("MissingSymbol"))), .optional("nextCursor", .text)]),
            "SymbolKey": .object([.required("uuid", .text), .required("arch", .text)]),
            "SymbolUploadResult": .object([
                .required("added", .array(.ref("SymbolKey"))), .required("alreadyPresent", .array(.ref("SymbolKey"))),
                .required("replaced", .array(.ref("SymbolKey"))), .required("releases", .array(.integer())),
            ]),
        ]
    }

    static var admin: [String: JSONSchema] {
        [
            "Settings": .object([
                .optional("teamId", .text), .optional("membershipRenewal", .day), .required("publicURL", .string(format: "uri")),
                .required("brandName", .text), .required("brandColor", .string(pattern: "^#[0-9a-f]{6}$")), .required("created", .timestamp),
                .required("membershipYear", .ref("MembershipYear")),
            ]),
            "Token": .object([
                .required("id", .integer(minimum: 1)), .required("name", .text), .required("scope", .string(values: scopes)),
                .required("created", .timestamp), .optional("lastUsed", .timestamp), .optional("revoked", .timestamp),
            ]),
            "TokenList": .object([.required("tokens", .array(.ref("Token"))), .optional("nextCursor", .text)]),
            "CreatedToken": .object([
                .required("token", .ref("Token")),
                .required("secret", .string(description: "Send as `Authorization: Bearer <secret>`; shown only here.")),
            ]),
            "Problem": .object([
                .required("type", .string(description: "A stable URN per kind of error, `urn:betactl:problem:<kind>`.", format: "uri")),
                .required("title", .text), .required("status", .integer()),
                .required("detail", .string(description: "One sentence naming the value and the fix (the CLI's message).")),
                .required("instance", .text), .optional("requestId", .text),
                .optional("errors", .array(.object([.required("detail", .text)])), "Every reason, when there are several (a refused build)."),
            ], description: "An RFC 9457 problem; some kinds add members (a refused device's `family`, `used`, `limit`, `renews`; an already released build's `releaseId`).",
               additional: .any()),
        ]
    }

    static var requests: [String: JSONSchema] {
        [
            "NewTester": .object([
                .required("name", .text), .optional("email", .string(format: "email")), .optional("groups", .array(.text)),
                .optional("devices", .array(.ref("NewTesterDevice"))),
            ], additional: .never),
            "NewTesterDevice": .object([
                .required("udid", .text), .optional("name", .text),
                .optional("model", .string(description: "A model code such as iPhone15,2; it sets the family.")),
                .optional("family", .string(values: families)),
            ], additional: .never),
            "NewDevice": .object([
                .required("tester", .oneOf([.integer(), .text]), "The tester's id, email or exact name."),
                .required("udid", .text), .optional("name", .text), .optional("model", .text), .optional("family", .string(values: families)),
            ], additional: .never),
            "Groups": .object([.required("groups", .array(.text))], additional: .never),
            "ResignRequest": .object([
                .required("profile", .text, "An imported profile's UUID (or UUID prefix) or name; its certificates must include the code-signing identity's."),
                .optional("notes", .text, "Release notes (default: the original's)."),
            ], additional: .never),
            "SettingsChange": .object([
                .optional("teamId", .text), .optional("membershipRenewal", .day), .optional("publicURL", .string(format: "uri")),
                .optional("brandName", .text), .optional("brandColor", .text),
            ], additional: .never),
            "NewToken": .object([.required("name", .text), .optional("scope", .string(values: scopes))], additional: .never),
            "ReleaseUpload": .object([
                .optional("ipa", .binary(description: "The .ipa, exactly as testers will download it.")),
                .optional("xcarchive", .binary(description: "A zipped .xcarchive instead of the ipa; its app is packaged into one.")),
                .optional("dsym", .array(.binary(description: "A zipped .dSYM (or .xcarchive) with the build's symbols."))),
                .optional("notes", .text), .optional("group", .array(.text), "Offer the release only to these groups (default: everyone)."),
                .optional("again", .boolean(description: "Publish a build already released (the same package SHA-256) as a new release.")),
                .optional("allowMissingSymbols", .boolean()),
                .optional("allowUnsigned", .boolean(description: "Simulator builds only: release without a verified code signature or profile.")),
                .optional("allowProfileType", .array(.string(values: ["development", "enterprise"]))),
            ], description: "Exactly one of ipa and xcarchive.", additional: .never),
            "SymbolUpload": .object([.required("dsym", .array(.binary()))], additional: .never),
        ]
    }
}
