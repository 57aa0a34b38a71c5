import AppleFormats
import Foundation
import Testing
@testable import BetaKit
import TestSupport

@Suite struct EntitlementCheckerTests {
    @Test func acceptsTheGeneratedAppAndExtensionAgainstTheirProfiles() throws {
        let work = try TemporaryDirectory()
        let artifact = try ArtifactIngestor(workDirectory: work.path).ingest(path: LocalFixtures.url("formats/app/Beta.ipa").path)
        for executable in try #require(artifact.app).executables {
            let profile = try #require(executable.profile)
            for slice in executable.slices {
                #expect(EntitlementChecker.check(try #require(slice.entitlements), against: profile, adHoc: true).isEmpty, "\(executable.path)")
            }
        }
    }

    @Test func reportsEveryMismatchOfTheBadBuildWithKeyValueAndAllowance() throws {
        let work = try TemporaryDirectory()
        let artifact = try ArtifactIngestor(workDirectory: work.path).ingest(path: LocalFixtures.url("formats/app/BetaBadEntitlements.ipa").path)
        let executable = try #require(artifact.app?.executables.first)
        let profile = try FormatsFixtures.profile("beta_adhoc")
        let mismatches = EntitlementChecker.check(try #require(executable.slices.first?.entitlements), against: profile, adHoc: true)
        #expect(mismatches.map(\.key) == ["aps-environment", "com.apple.developer.healthkit", "com.apple.security.application-groups", "get-task-allow", "keychain-access-groups"])
        let text = mismatches.map(\.description)
        #expect(text[0] == "entitlement \"aps-environment\": the app was signed with \"development\", but the profile \"Beta Ad Hoc\" allows only \"production\"; sign with values the profile allows or regenerate the profile")
        #expect(text[1] == "entitlement \"com.apple.developer.healthkit\": the app was signed with true, but the profile \"Beta Ad Hoc\" does not grant com.apple.developer.healthkit at all; enable the capability for the App ID and regenerate the profile, or remove the entitlement")
        #expect(text[2] == "entitlement \"com.apple.security.application-groups\": the app was signed with [\"group.com.example.beta\", \"group.com.other\"], but the profile \"Beta Ad Hoc\" allows only [\"group.com.example.beta\", \"group.com.example.shared\"]; sign with values the profile allows or regenerate the profile")
        #expect(text[3] == "entitlement \"get-task-allow\": the app was signed with true, but an ad hoc build must be signed with false (the profile \"Beta Ad Hoc\" allows false); export with the Ad Hoc method, not Development")
        #expect(text[4] == "entitlement \"keychain-access-groups\": the app was signed with [\"ZZZZZ99999.shared\"], but the profile \"Beta Ad Hoc\" allows only [\"ABCDE12345.*\", \"com.apple.token\"]; sign with values the profile allows or regenerate the profile")
    }

    @Test func matchesWildcardsArraysAndBooleansLikeIOS() throws {
        #expect(EntitlementChecker.allows(.string("ABCDE12345.*"), .string("ABCDE12345.com.example.app")))
        #expect(!EntitlementChecker.allows(.string("ABCDE12345.*"), .string("ZZZZZ99999.com.example.app")))
        #expect(EntitlementChecker.allows(.string("*"), .array([.string("applinks:a.com"), .string("webcredentials:b.com")])))
        #expect(EntitlementChecker.allows(.array([.string("a"), .string("b.*")]), .array([.string("a"), .string("b.c")])))
        #expect(!EntitlementChecker.allows(.array([.string("a")]), .array([.string("a"), .string("z")])))
        #expect(EntitlementChecker.allows(.string("production"), .string("production")))
        #expect(EntitlementChecker.allows(.bool(true), .bool(false)))
        #expect(!EntitlementChecker.allows(.bool(false), .bool(true)))
        #expect(!EntitlementChecker.allows(.string("x"), .bool(true)))
        // A development profile may allow get-task-allow; only ad hoc forbids it.
        let dev: [String: PlistValue] = ["get-task-allow": .bool(true)]
        let profile = try Self.profile(["get-task-allow": .bool(true)])
        #expect(EntitlementChecker.check(dev, against: profile, adHoc: false).isEmpty)
        #expect(EntitlementChecker.check(dev, against: profile, adHoc: true).map(\.reason) == [.debuggableAdHoc])
    }

    @Test(.enabled(if: SharedFixtures.available))
    func checksTheRealSignedExecutableAgainstItsOwnBERProfile() throws {
        let data = [UInt8](try SharedFixtures.data("macho/macho_fastlane_very-capable-app.bin"))
        let (slices, problems) = data.withUnsafeBytes { MachOSlices.read($0) }
        #expect(problems.isEmpty)
        let profile = try ProvisioningProfile(bytes: [UInt8](SharedFixtures.data("profiles/development_BER_indefinite_fastlane_very-capable-app.mobileprovision")))
        let entitlements = try #require(slices.first?.entitlements)
        let mismatches = EntitlementChecker.check(entitlements, against: profile, adHoc: false)
        // The fixture app was signed for the same capabilities the profile grants.
        #expect(mismatches.map(\.description) == [])
        // Checked as ad hoc, its get-task-allow true is refused specifically.
        #expect(EntitlementChecker.check(entitlements, against: profile, adHoc: true).map(\.key) == ["get-task-allow"])
    }

    static func profile(_ entitlements: [String: PlistValue]) throws -> ProvisioningProfile {
        try ProvisioningProfile(plist: .dictionary([
            "Name": .string("P"), "UUID": .string("u"), "TeamIdentifier": .array([.string("ABCDE12345")]),
            "CreationDate": .date(.distantPast), "ExpirationDate": .date(.distantFuture), "Entitlements": .dictionary(entitlements),
        ]), bytes: [])
    }
}
