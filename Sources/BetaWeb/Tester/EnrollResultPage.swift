import AppleFormats
import BetaKit
import Mustache

/// The page Safari opens by itself after the device answered: what the reply led to.
struct EnrollResultPage: Sendable, MustacheRepresentable {
    var chrome: PageChrome
    var outcome: String
    var succeeded: Bool
    var heading: String
    var message: String
    var detail: String?
    var testerPageURL: String
    /// Where to start again, for outcomes that call for it.
    var startAgainURL: String?
    /// Where the automatic provisioning flow stands for the device, when it is working on it.
    var progress: String?
    /// The progress's status class (`registering`, `preparing`, `provisioning-failed`).
    var progressStatus: String?

    init(chrome: PageChrome, result: EnrollmentResult, testerName: String, testerPageURL: String, enrollURL: String) {
        self.chrome = chrome
        self.testerPageURL = testerPageURL
        outcome = result.outcome.rawValue
        succeeded = result.outcome.isAccepted
        detail = nil
        startAgainURL = enrollURL
        let model = result.model.map(DeviceModelName.displayName(forModelCode:)) ?? result.family?.displayName ?? "device"
        let device = result.deviceName.map { "“\($0)” (\(model))" } ?? "This \(model)"
        switch result.outcome {
        case .registered:
            heading = "Device registered"
            message = "\(device) is now registered for \(testerName). It will install from the next build whose profile includes it; until then your page shows it as pending."
            startAgainURL = nil
        case .requested:
            heading = "Request sent"
            message = "Your request to register \(result.deviceName.map { "“\($0)” (\(model))" } ?? "this \(model)") for \(testerName) was sent. The team approves it, then the device is registered with Apple and a build for it is prepared; your page shows it once it is approved. There is nothing more to do on this device."
            startAgainURL = nil
        case .requestedBySomeoneElse:
            heading = "Already requested by someone else"
            message = "This device is already waiting for approval for another tester, so nothing changed. Ask the person who sent you the link."
            startAgainURL = nil
        case .tooManyRequests:
            let limit = result.slots?.limit ?? DeviceEnrollment.defaultOpenRequestLimit
            heading = "Too many devices waiting"
            message = "You already have \(limit) devices waiting for approval, the most one tester may have at a time, so this one was not added. When the team has approved or rejected them, start again."
            startAgainURL = nil
        case .unverified:
            heading = "The device's answer could not be verified"
            message = "Its signature is not that of an Apple device, so nothing was registered or requested. Start again on the device itself; if it keeps failing, tell the person who sent you the link."
            detail = result.detail
        case .alreadyRegistered:
            heading = "Already registered"
            message = "\(device) was already registered for \(testerName), so nothing changed. It installs every build whose profile includes it."
            startAgainURL = nil
        case .registeredToSomeoneElse:
            heading = "Registered to someone else"
            message = "This device is already registered to another tester, so it was not added to your devices. Ask the person who sent you the link to move it to you."
            startAgainURL = nil
        case .familyFull:
            let family = result.family ?? .iphone
            let renews = result.renews.map(\.description) ?? "the renewal of the membership"
            let limit = result.slots?.limit ?? Roster.limitPerFamily
            heading = "No room for this \(family.displayName)"
            message = "Apple allows \(limit) \(family.pluralName) per membership year, and all \(limit) of this year's are used until \(renews). The device was not registered; tell the person who sent you the link. Slots come back when the membership renews on \(renews)."
            startAgainURL = nil
        case .expired:
            heading = "The link expired"
            message = "The registration profile works for 30 minutes and this one ran out. Start again: tap Register this device once more and install the new profile."
        case .challengeUsed:
            heading = "This profile was already used"
            message = "Each registration profile works once. If your device is listed on your page it is registered; otherwise start again."
        case .wrongTester:
            heading = "This profile was made for someone else"
            message = "The registration profile came from another tester's link, so the device was not added. Start again from your own page."
        case .unknownChallenge:
            heading = "Not a registration from this page"
            message = "The device's answer did not carry a registration code from this server. Start again: tap Register this device and install the profile it downloads."
        case .unreadable:
            heading = "The device's answer could not be read"
            message = "Nothing was registered. Start again; if it keeps failing, tell the person who sent you the link."
            detail = result.detail
        case .tooLarge:
            heading = "The device's answer was too large"
            message = "It was larger than any device sends, so it was not read and nothing was registered. Start again."
        }
    }

    /// Adds where the automatic flow stands for the device (reloading the page while it works).
    mutating func show(_ provisioning: DeviceProvisioning) {
        let (status, text) = DeviceRow.describe(provisioning)
        progress = text
        progressStatus = status.rawValue
        if provisioning != .failed { chrome.refreshSeconds = DeviceRow.refreshSeconds }
    }

    /// The page for a reply turned away by the rate limit `outcome` on `scope` (this link, the address).
    init(rateLimitedChrome chrome: PageChrome, outcome: String, scope: String, perMinute: Int, burst: Int, testerPageURL: String,
         enrollURL: String) {
        self.chrome = chrome
        self.outcome = outcome
        succeeded = false
        heading = "Too many registrations at once"
        message = "Registrations from \(scope) are limited to \(perMinute) a minute (\(burst) at once), and this one was past the limit, so nothing was registered. Wait a minute and start again."
        detail = nil
        self.testerPageURL = testerPageURL
        startAgainURL = enrollURL
    }

    /// The page for a reply the server could not record (a database failure): nothing to look up.
    init(serverErrorChrome chrome: PageChrome, testerPageURL: String, enrollURL: String) {
        self.chrome = chrome
        outcome = "server-error"
        succeeded = false
        heading = "Something went wrong"
        message = "The server could not record this registration. Try again in a moment; if it keeps failing, tell the person who sent you the link."
        detail = nil
        self.testerPageURL = testerPageURL
        startAgainURL = enrollURL
    }

    var mustacheValue: MustacheValue {
        ["page": chrome.mustacheValue, "outcome": .string(outcome), "succeeded": .bool(succeeded), "heading": .string(heading),
         "message": .string(message), "detail": detail.map(MustacheValue.string) ?? .null, "testerPageURL": .string(testerPageURL),
         "startAgainURL": startAgainURL.map(MustacheValue.string) ?? .null, "progress": progress.map(MustacheValue.string) ?? .null,
         "progressStatus": progressStatus.map(MustacheValue.string) ?? .null]
    }
}
