import AppleFormats
@testable import BetaKit
import CryptoCMS
import Foundation
import Testing
import TestSupport

/// Re-signing a whole app: the fixture Beta app (with its widget) signed again by a new identity and
/// profile, then checked by the verifier, the profile check and the independent checker.
@Suite("Bundle signer", .enabled(if: OpenSSLTool.available))
struct BundleSignerTests {
    /// The fixture app unzipped, and a signer with a new identity and profile (see `ResigningFixtures`).
    static func setUp(_ work: TemporaryDirectory, edit: String = "") throws -> (app: String, signer: BundleSigner) {
        let unzip = try runToolNow("unzip", ["-q", LocalFixtures.url("formats/app/Beta.ipa").path, "-d", work.child("ipa")])
        #expect(unzip.status == 0)
        try ResigningFixtures.make(in: work, edit: edit)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: work.child("new.mobileprovision"))))
        let identity = try CMSSigningIdentity(certificates: [UInt8](Data(contentsOf: URL(fileURLWithPath: work.child("cert.pem")))),
                                              privateKey: [UInt8](Data(contentsOf: URL(fileURLWithPath: work.child("key.pem")))))
        let signer = BundleSigner(cms: try LibcryptoCodeSigner(identity: identity), profile: try ProvisioningProfile(bytes: bytes), profileBytes: bytes)
        return (work.child("ipa/Payload/Beta.app"), signer)
    }

    @Test("The re-signed app verifies as iOS would, with the new certificate in the new profile, and keeps every UUID")
    func resignsTheFixtureApp() throws {
        let work = try TemporaryDirectory()
        let (app, signer) = try Self.setUp(work)
        let before = try ArtifactIngestor(workDirectory: work.path).ingest(path: LocalFixtures.url("formats/app/Beta.ipa").path)
        try signer.sign(appAt: app, name: "Payload/Beta.app")
        let report = try CodeSignatureChecker(workDirectory: work.path).check(path: app)
        #expect(report.problems == [], "\(report.problems)")
        #expect(report.executables.map(\.path) == ["Beta.app/PlugIns/BetaWidget.appex/BetaWidget", "Beta.app/Beta"])
        let signers = Set(report.executables.flatMap { $0.slices.compactMap { $0.signer?.subject.commonName } })
        #expect(signers == ["iPhone Distribution: Resigner (ABCDE12345)"])

        let zipped = work.child("Resigned.ipa")
        let zip = try runToolNow("zip", ["-qr", zipped, "Payload"], directory: work.child("ipa"))
        #expect(zip.status == 0)
        let after = try ArtifactIngestor(workDirectory: work.path).ingest(path: zipped)
        #expect(after.app?.executables.map { $0.slices.map(\.uuid) } == before.app?.executables.map { $0.slices.map(\.uuid) })
        let entitlements = try #require(after.app?.executables.first?.slices.first?.entitlements)
        #expect(entitlements["application-identifier"] == .string("ABCDE12345.com.example.beta"))
        #expect(entitlements["get-task-allow"] == .bool(false))
        #expect(after.app?.profile?.name == "Resigned Ad Hoc")
        #expect(after.app?.executables.last?.profile?.name == "Resigned Ad Hoc", "the widget embeds the new profile too")
        let validation = ReleaseValidator.validate(build: after, availableSymbols: before.symbolKeys.union(try Self.dsymKeys(work)),
                                                   devices: [], now: FormatsFixtures.now)
        #expect(validation.refusals.map(\.description) == [])
    }

    static func dsymKeys(_ work: TemporaryDirectory) throws -> Set<SymbolKey> {
        var keys = Set<SymbolKey>()
        for name in ["Beta.app.dSYM.zip", "BetaWidget.appex.dSYM.zip"] {
            keys.formUnion(try ArtifactIngestor(workDirectory: work.path).ingest(path: LocalFixtures.url("formats/app/\(name)").path).symbolKeys)
        }
        return keys
    }

    @Test("The independent checker and rcodesign accept the re-signed executable", .enabled(if: PythonOracles.isInstalled))
    func independentChecker() throws {
        let work = try TemporaryDirectory()
        let (app, signer) = try Self.setUp(work)
        try signer.sign(appAt: app, name: "Payload/Beta.app")
        let script = Repository.root.appendingPathComponent("Tests/Clients/check_code_signature.py").path
        for (executable, bundle) in [(app + "/Beta", app), (app + "/PlugIns/BetaWidget.appex/BetaWidget", app + "/PlugIns/BetaWidget.appex")] {
            let checked = try runToolNow(PythonOracles.python, [script, executable, bundle + "/Info.plist", bundle + "/_CodeSignature/CodeResources"])
            #expect(checked.status == 0, "\(executable): \(checked.text) \(checked.error)")
        }
    }

    @Test("A profile that does not allow an entitlement the app uses is refused, naming the key")
    func refusesMissingEntitlement() throws {
        let work = try TemporaryDirectory()
        let (app, signer) = try Self.setUp(work, edit: "del profile[\"Entitlements\"][\"aps-environment\"]")
        #expect {
            try signer.sign(appAt: app, name: "Payload/Beta.app")
        } throws: { error in
            guard case let .entitlementsNotAllowed(bundle, profile, mismatches) = error as? ResignError else { return false }
            return bundle == "Payload/Beta.app" && profile == "Resigned Ad Hoc" && mismatches.contains { $0.contains("aps-environment") }
        }
    }
}
