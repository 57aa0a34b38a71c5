import AppleFormats
@testable import BetaKit
import BetaServer
@testable import BetaWeb
import Foundation
import Testing

/// The enrolment pages' logic, without a server: device rows, result wording, the profile's identity.
@Suite struct EnrollmentPageTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    static func device(_ udid: String, model: String? = "iPhone15,2", pending: Bool = false, removed: Bool = false) throws -> Device {
        Device(identifier: try DeviceIdentifier(udid), name: "Ann's iPhone", family: .iphone, model: model, testerID: 1, testerName: "Ann",
               addedAt: now, removedAt: removed ? now : nil, isPending: pending)
    }

    static let release = Release(id: 4, bundleID: "com.x", displayName: "X", version: "2.0", build: "9", minimumOS: nil, sourceKind: .ipa,
                                 sourceName: "x.ipa", packageBlob: HashDigest(bytes: []), iconBlob: nil, profileUUID: nil, profileName: nil,
                                 profileType: .adHoc, profileExpiresAt: nil, notes: nil, groups: [], createdAt: now, revokedAt: nil)

    @Test func aPendingDeviceSaysSoUnlessTheNewestBuildAlreadyInstallsOnIt() throws {
        let udid = "00008120-001A2B3C4D5E6F70"
        let pending = try Self.device(udid, pending: true)
        let none = DeviceRow(device: pending, newest: nil, coverage: nil)
        #expect(none.status == .pending)
        #expect(none.statusText == "Pending: registered, waiting for the next build whose profile includes it")
        #expect(none.model == "iPhone 14 Pro", "the marketing name, not the code")
        let without = ProfileCoverage(allDevices: false, udids: ["00008030-0000000000000A01"], isKnown: true)
        #expect(DeviceRow(device: pending, newest: Self.release, coverage: without).status == .pending)
        let with = ProfileCoverage(allDevices: false, udids: [udid], isKnown: true)
        #expect(DeviceRow(device: pending, newest: Self.release, coverage: with).status == .ready)
        #expect(DeviceRow(device: try Self.device(udid, pending: true, removed: true), newest: nil, coverage: nil).status == .removed)
        #expect(DeviceRow(device: try Self.device(udid), newest: Self.release, coverage: without).status == .notInProfile)
        #expect(DeviceRow(device: try Self.device(udid, model: "iPhone99,1"), newest: nil, coverage: nil).model == "iPhone99,1")
    }

    @Test func theBlockedReasonNamesSeveralPhonesInPlainWords() throws {
        let devices = [try Self.device("00008120-0000000000000001"), try Self.device("00008120-0000000000000002")]
        let coverage = ProfileCoverage(allDevices: false, udids: [], isKnown: true)
        let reason = ReleaseCard.blockedReason(families: [.iphone], devices: devices, coverage: coverage, label: "iPhone")
        #expect(reason?.hasPrefix("Your iPhones (“Ann's iPhone”, “Ann's iPhone”) are not in this build's provisioning profile") == true)
    }

    func result(_ outcome: EnrollmentResult.Outcome, name: String? = "Ann's <iPhone>") -> EnrollmentResult {
        EnrollmentResult(reference: "ref", testerID: 1, outcome: outcome, udid: nil, deviceName: name, model: "iPad16,3", family: .ipad,
                         reusedSlot: false, slots: outcome == .familyFull ? (100, 100) : nil,
                         renews: outcome == .familyFull ? CalendarDate(iso: "2027-03-01") : nil,
                         detail: outcome == .unreadable ? "the enrolment reply is not readable: x" : nil, createdAt: Self.now)
    }

    func page(_ outcome: EnrollmentResult.Outcome) -> EnrollResultPage {
        let chrome = PageChrome(title: "t", brandName: "B", assets: AssetLinks(css: "", brandCSS: "", js: "", favicon: "", placeholderIcon: ""),
                                client: .iPhone, inAppBrowser: false, insecure: false)
        return EnrollResultPage(chrome: chrome, result: result(outcome), testerName: "Ann", testerPageURL: "https://b/t/x",
                                enrollURL: "https://b/t/x/enroll")
    }

    @Test func everyOutcomeHasItsOwnWordsAndOnlyFailuresOfferAFreshStart() {
        var headings: Set<String> = []
        for outcome in EnrollmentResult.Outcome.allCases {
            let page = page(outcome)
            headings.insert(page.heading)
            #expect(page.outcome == outcome.rawValue)
            #expect(page.succeeded == outcome.isAccepted)
            let restart = [.expired, .challengeUsed, .wrongTester, .unknownChallenge, .unreadable, .unverified, .tooLarge].contains(outcome)
            #expect((page.startAgainURL != nil) == restart, "\(outcome)")
        }
        #expect(headings.count == EnrollmentResult.Outcome.allCases.count)
        #expect(page(.registered).message.hasPrefix("“Ann's <iPhone>” (iPad Pro 11-inch (M4)) is now registered for Ann. It will install from the next build whose profile includes it"))
        #expect(page(.familyFull).heading == "No room for this iPad")
        #expect(page(.familyFull).message.contains("Apple allows 100 iPads per membership year, and all 100 of this year's are used until 2027-03-01"))
        #expect(page(.expired).heading == "The link expired")
        #expect(page(.unreadable).detail == "the enrolment reply is not readable: x")
        #expect(page(.requested).heading == "Request sent")
        #expect(page(.requested).message.hasPrefix("Your request to register “Ann's <iPhone>” (iPad Pro 11-inch (M4)) for Ann was sent. The team approves it, then the device is registered with Apple and a build for it is prepared"))
        #expect(page(.unverified).heading == "The device's answer could not be verified")
        #expect(page(.unverified).message.contains("nothing was registered or requested"))
        #expect(page(.tooManyRequests).message.contains("You already have 5 devices waiting for approval"))
    }

    @Test func valuesOnTheResultPageAreEscaped() throws {
        let renderer = try PageRenderer(assets: try WebAssets.load(templatesDirectory: nil, webDirectory: nil))
        let html = String(decoding: try renderer.render("enroll-result", page(.registered)), as: UTF8.self)
        #expect(html.contains("“Ann&#39;s &lt;iPhone&gt;”"))
        #expect(!html.contains("<iPhone>"))
        #expect(html.contains("class=\"message enroll-result outcome-registered\""))
    }

    @Test func theProfileIdentifierIsTheReversedPublicHost() throws {
        #expect(EnrollmentProfile.identifier(publicURL: "https://beta.example.com") == "com.example.beta.betactl.enroll")
        #expect(EnrollmentProfile.identifier(publicURL: "https://Beta.Example.com:8443/acme?x") == "com.example.beta.betactl.enroll")
        #expect(EnrollmentProfile.identifier(publicURL: "http://127.0.0.1:8080") == "betactl.enroll")
        #expect(EnrollmentProfile.identifier(publicURL: "") == "betactl.enroll")
        let profile = EnrollmentProfile.make(replyURL: "https://b/t/x/enroll", challenge: "c", brandName: "Acme", publicURL: "https://b.io",
                                             uuid: "5A3C0F5E-0000-4000-8000-000000000001")
        #expect(profile.profileService?.deviceAttributes == ["UDID", "PRODUCT", "VERSION", "SERIAL", "DEVICE_NAME", "IMEI"])
        #expect(profile.organization == "Acme")
        // What betactl writes, betactl's reader (and `inspect`) reads back as the same profile.
        #expect(try ConfigurationProfile(plistBytes: try profile.xmlBytes()) == profile)
    }
}
