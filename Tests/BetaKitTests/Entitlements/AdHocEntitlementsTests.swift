import AppleFormats
import Foundation
import Testing
@testable import BetaKit

@Suite struct AdHocEntitlementsTests {
    @Test func generatesConcreteEntitlementsWithWildcardsResolved() throws {
        let profile = try FormatsFixtures.profile("beta_adhoc")
        let generated = try AdHocEntitlements.generate(profile: profile, bundleID: "com.example.beta")
        #expect(generated == [
            "application-identifier": .string("ABCDE12345.com.example.beta"),
            "com.apple.developer.team-identifier": .string("ABCDE12345"),
            "get-task-allow": .bool(false),
            "keychain-access-groups": .array([.string("ABCDE12345.com.example.beta"), .string("com.apple.token")]),
            "aps-environment": .string("production"),
            "com.apple.security.application-groups": .array([.string("group.com.example.beta"), .string("group.com.example.shared")]),
            "com.apple.developer.icloud-container-identifiers": .array([.string("iCloud.com.example.beta")]),
            "com.apple.developer.ubiquity-kvstore-identifier": .string("ABCDE12345.com.example.beta"),
        ])
        // What we generate must itself pass the check against the profile.
        #expect(EntitlementChecker.check(generated, against: profile, adHoc: true).isEmpty)
        // And it serializes as an XML plist Apple's codesign accepts.
        let xml = String(decoding: try PlistValue.dictionary(generated).xmlBytes(), as: UTF8.self)
        #expect(xml.contains("<key>get-task-allow</key>\n\t<false/>"))
    }

    @Test func wildcardProfileResolvesAgainstTheExtensionsBundleID() throws {
        let generated = try AdHocEntitlements.generate(profile: try FormatsFixtures.profile("widget_adhoc"), bundleID: "com.example.beta.widget")
        #expect(generated["application-identifier"] == .string("ABCDE12345.com.example.beta.widget"))
        #expect(generated["keychain-access-groups"] == .array([.string("ABCDE12345.com.example.beta.widget")]))
    }

    @Test func refusesProfilesForOtherAppsOrOfOtherTypesWithMessages() throws {
        let other = #expect(throws: EntitlementsError.self) {
            try AdHocEntitlements.generate(profile: try FormatsFixtures.profile("other_app_adhoc"), bundleID: "com.example.beta")
        }
        #expect(other?.description == "the profile \"Other App Ad Hoc\" is for ABCDE12345.com.example.other, which does not cover the bundle id com.example.beta; choose the profile made for com.example.beta or a wildcard profile")
        let dev = #expect(throws: EntitlementsError.self) {
            try AdHocEntitlements.generate(profile: try FormatsFixtures.profile("beta_development"), bundleID: "com.example.beta")
        }
        #expect(dev?.description == "the profile \"Beta Development\" is a development profile, not ad hoc; create an Ad Hoc profile in the Apple Developer portal (or pass --allow-profile-type development)")
        let allowed = try AdHocEntitlements.generate(profile: try FormatsFixtures.profile("beta_development"), bundleID: "com.example.beta",
                                                     allowedTypes: [.adHoc, .development])
        #expect(allowed["get-task-allow"] == .bool(false))
        #expect(allowed["aps-environment"] == .string("development"))
    }
}
