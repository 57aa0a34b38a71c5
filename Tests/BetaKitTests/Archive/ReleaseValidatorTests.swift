import AppleFormats
import Foundation
import Testing
@testable import BetaKit
import TestSupport

@Suite struct ReleaseValidatorTests {
    static func ingest(_ name: String, _ work: TemporaryDirectory) throws -> IngestedArtifact {
        try ArtifactIngestor(workDirectory: work.path).ingest(path: LocalFixtures.url("formats/app/\(name)").path)
    }

    static func rosterDevices(extra: [String] = []) throws -> [Device] {
        try FormatsFixtures.profileDevices.map { try FormatsFixtures.device($0, tester: "Ann") } + extra.map { try FormatsFixtures.device($0, tester: "Bob") }
    }

    static func symbols(_ names: [String], _ work: TemporaryDirectory) throws -> Set<SymbolKey> {
        try names.reduce(into: Set<SymbolKey>()) { $0.formUnion(try ingest($1, work).symbolKeys) }
    }

    @Test func acceptsTheXcarchiveWithItsOwnDSYMs() throws {
        let work = try TemporaryDirectory()
        let build = try Self.ingest("Beta.xcarchive.zip", work)
        let result = ReleaseValidator.validate(build: build, availableSymbols: build.symbolKeys, devices: try Self.rosterDevices(), now: FormatsFixtures.now)
        #expect(result.refusals == [])
        #expect(result.isAccepted)
        #expect(result.missingSymbols.isEmpty)
        #expect(result.warnings == [])
    }

    @Test func acceptsTheIpaWithDSYMsPassedSeparately() throws {
        let work = try TemporaryDirectory()
        let build = try Self.ingest("Beta.ipa", work)
        let symbols = try Self.symbols(["Beta.app.dSYM.zip", "BetaWidget.appex.dSYM.zip"], work)
        let result = ReleaseValidator.validate(build: build, availableSymbols: symbols, devices: try Self.rosterDevices(), now: FormatsFixtures.now)
        #expect(result.refusals.map(\.description) == [])
    }

    @Test func refusesSlicesWhoseDSYMDoesNotMatchAndRecordsThemWhenAllowed() throws {
        let work = try TemporaryDirectory()
        let build = try Self.ingest("Beta.ipa", work)
        let symbols = try Self.symbols(["Beta-rebuilt.app.dSYM.zip", "BetaWidget.appex.dSYM.zip"], work)
        let expected = try JSONDecoder().decode([String: [String: String]].self, from: LocalFixtures.data("formats/app/expected.json"))
        let refused = ReleaseValidator.validate(build: build, availableSymbols: symbols, devices: [], now: FormatsFixtures.now)
        let arm64 = try #require(expected["Beta"]?["arm64"]), arm64e = try #require(expected["Beta"]?["arm64e"])
        #expect(refused.refusals.map(\.description) == [
            "no dSYM matches 2 executable slices (Payload/Beta.app/Beta arm64 \(arm64); Payload/Beta.app/Beta arm64e \(arm64e)); pass the build's dSYMs with --dsym (or release the .xcarchive), or --allow-missing-symbols to release without them",
        ])
        let allowed = ReleaseValidator.validate(build: build, availableSymbols: symbols, devices: [],
                                                policy: ReleasePolicy(allowMissingSymbols: true), now: FormatsFixtures.now)
        #expect(allowed.isAccepted)
        #expect(allowed.missingSymbols.map(\.executablePath) == ["Payload/Beta.app/Beta", "Payload/Beta.app/Beta"])
        #expect(allowed.warnings.first?.description.hasPrefix("released without symbols for Payload/Beta.app/Beta arm64") == true)
    }

    @Test func listsEveryRefusalOfTheBadBuildAtOnce() throws {
        let work = try TemporaryDirectory()
        var build = try Self.ingest("BetaBadEntitlements.ipa", work)
        // Swap in the expired profile too, so one run has to report profile, entitlement and symbol problems together.
        let expired = try FormatsFixtures.profile("beta_expired")
        build.app?.profile = expired
        build.app?.executables[0].profile = expired
        let result = ReleaseValidator.validate(build: build, availableSymbols: [], devices: [], now: FormatsFixtures.now)
        let text = result.refusals.map(\.description)
        #expect(text.first == "Payload/Beta.app: the embedded profile \"Beta Ad Hoc (expired)\" expired on 2020-01-01; regenerate it, re-export the build and release again")
        #expect(text.filter { $0.hasPrefix("Payload/Beta.app/Beta: entitlement ") }.count == 5)
        #expect(text.contains { $0.hasPrefix("Payload/Beta.app/Beta: entitlement \"get-task-allow\": the app was signed with true, but an ad hoc build must be signed with false") })
        #expect(text.last?.hasPrefix("no dSYM matches 1 executable slice (Payload/Beta.app/Beta arm64 ") == true)
        #expect(result.refusals.count == 7)
    }

    @Test func refusesNonAdHocProfilesUnlessAllowedAndProfilesForOtherApps() throws {
        let work = try TemporaryDirectory()
        var build = try Self.ingest("Beta.xcarchive.zip", work)
        let symbols = build.symbolKeys
        let development = try FormatsFixtures.profile("beta_development")
        build.app?.profile = development
        build.app?.executables[0].profile = development
        let refused = ReleaseValidator.validate(build: build, availableSymbols: symbols, devices: [], now: FormatsFixtures.now)
        #expect(refused.refusals.first?.description == "Beta.xcarchive/Products/Applications/Beta.app: the embedded profile \"Beta Development\" is a development profile, not ad hoc; export with the Ad Hoc method, or pass --allow-profile-type development if testers' devices are in it")
        let allowed = ReleaseValidator.validate(build: build, availableSymbols: symbols, devices: [],
                                                policy: ReleasePolicy(allowedProfileTypes: [.development]), now: FormatsFixtures.now)
        // The type is now allowed, but the build was signed for production push, which a development profile does not grant.
        #expect(allowed.refusals.map(\.description) == [
            "Beta.xcarchive/Products/Applications/Beta.app/Beta: entitlement \"aps-environment\": the app was signed with \"production\", but the profile \"Beta Development\" allows only \"development\"; sign with values the profile allows or regenerate the profile",
        ])
        let other = try FormatsFixtures.profile("other_app_adhoc")
        build.app?.profile = other
        build.app?.executables[0].profile = other
        let wrongApp = ReleaseValidator.validate(build: build, availableSymbols: symbols, devices: [], now: FormatsFixtures.now)
        #expect(wrongApp.refusals.map(\.description) == [
            "Beta.xcarchive/Products/Applications/Beta.app: the embedded profile \"Other App Ad Hoc\" is for ABCDE12345.com.example.other, which does not cover the bundle id com.example.beta; sign with the profile made for com.example.beta",
            "Beta.xcarchive/Products/Applications/Beta.app/Beta: entitlement \"application-identifier\": the app was signed with \"ABCDE12345.com.example.beta\", but the profile \"Other App Ad Hoc\" allows only \"ABCDE12345.com.example.other\"; sign with values the profile allows or regenerate the profile",
        ])
    }

    @Test func warnsAboutActiveRosterDevicesMissingFromTheProfileByTester() throws {
        let work = try TemporaryDirectory()
        let build = try Self.ingest("Beta.xcarchive.zip", work)
        var devices = try Self.rosterDevices(extra: ["00008110-0000000000000D04"])
        devices.append(try FormatsFixtures.device("00008110-0000000000000E05", tester: "Bob", removed: true))
        let result = ReleaseValidator.validate(build: build, availableSymbols: build.symbolKeys, devices: devices, now: FormatsFixtures.now)
        #expect(result.isAccepted)
        #expect(result.warnings.map(\.description) == [
            "1 active device is not in the profile and cannot install this build (Bob: 00008110-0000000000000D04); regenerate the profile with every registered device",
        ])
    }

    @Test(.enabled(if: SharedFixtures.available))
    func refusesFastlaneIpaWithoutExecutableOrProfileListingEachProblem() throws {
        let work = try TemporaryDirectory()
        let build = try ArtifactIngestor(workDirectory: work.path).ingest(path: SharedFixtures.url("ipas/iOSAppOnly.ipa").path)
        let result = ReleaseValidator.validate(build: build, availableSymbols: [], devices: [], now: FormatsFixtures.now)
        #expect(result.refusals.map(\.description) == [
            "iOSAppOnly/Payload/Sample.app: has no embedded.mobileprovision; export the build with the Ad Hoc method so Xcode embeds the profile",
            "iOSAppOnly/Payload/Sample.app: the executable \"Sample\" named by CFBundleExecutable is missing; rebuild and export the app again",
            "iOSAppOnly/Payload/Sample.app has no _CodeSignature/CodeResources, so its resources are not sealed and iOS will refuse it: re-export the build from Xcode",
        ])
        let dsym = try Self.ingest("Beta.app.dSYM.zip", work)
        #expect(ReleaseValidator.validate(build: dsym, availableSymbols: [], devices: [], now: FormatsFixtures.now).refusals.map(\.description) ==
            ["the input is a dSYM, not an app build; pass an .ipa or .xcarchive (use add-symbols for dSYMs)"])
    }

    @Test func refusesUnsignedExecutables() throws {
        let work = try TemporaryDirectory()
        var build = try Self.ingest("Beta.xcarchive.zip", work)
        let symbols = build.symbolKeys
        for index in build.app?.executables[1].slices.indices ?? 0 ..< 0 {
            build.app?.executables[1].slices[index].signingIdentifier = nil
            build.app?.executables[1].slices[index].entitlements = nil
        }
        let result = ReleaseValidator.validate(build: build, availableSymbols: symbols, devices: [], now: FormatsFixtures.now)
        #expect(result.refusals.map(\.description) == [
            "Beta.xcarchive/Products/Applications/Beta.app/PlugIns/BetaWidget.appex/BetaWidget is not code signed; iOS refuses unsigned executables, so export the build from Xcode again",
        ])
    }
}
