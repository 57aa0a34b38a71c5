#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import BetaServer
import CryptoCMS

extension TesterController {
    /// Device enrolment under `/t/<token>`: the page, the Profile Service profile, the device's
    /// reply and the result page.
    func addEnrollmentRoutes(to tester: inout RouteGroup, auth: TesterAuth) {
        let loop = RouteOptions(execution: .eventLoop)
        // Replies are a few kilobytes. A larger body is still read (up to 2 MiB) and answered with
        // the usual redirect, since iOS reports any other answer as an invalid profile.
        let reply = RouteOptions(bodyLimit: Int64(DeviceEnrollment.maxReplySize), execution: .eventLoop,
                                 oversizedBody: .truncate(drainLimit: 2 << 20))
        // The reply resolves its link itself: whatever was posted, iOS must get a redirect.
        tester.post(TesterURLs.EnrollmentPattern.page, options: reply) { request, context in await enrollmentReply(request, context) }
        tester.group("", middleware: [auth]) { tester in
            tester.get(TesterURLs.EnrollmentPattern.page, options: loop) { request, context in
                try await enrollPage(request, context.require(TesterRequest.self))
            }
            tester.get(TesterURLs.EnrollmentPattern.profile, options: loop) { request, context in
                try await enrollmentProfile(request, context)
            }
            tester.get(TesterURLs.EnrollmentPattern.result, options: loop) { request, context in
                try await enrollmentResultPage(request, context.require(TesterRequest.self))
            }
        }
    }

    /// The enrolment page's URL, for the tester page's and release page's "register this device" links.
    func enrollURL(_ urls: TesterURLs) -> String? { urls.enroll }

    /// `GET /t/<token>/enroll`: the steps, and the button that downloads the profile.
    func enrollPage(_ request: Request, _ context: TesterRequest) async throws -> Response {
        let settings = context.snapshot.settings
        let page = EnrollPage(chrome: site.chrome(request, title: "\(settings.brandName): register your device", settings: settings,
                                             base: context.urls.base),
                              testerName: context.tester.name, testerPageURL: context.urls.page, profileURL: context.urls.enrollmentProfile,
                              qrSVG: context.urls.qrSVG, signer: Self.canSign(context.snapshot) ? context.snapshot.signingIdentity?.subject : nil,
                              pictures: ["download", "settings", "done"].reduce(into: [:]) { pictures, name in
                                  let path = "enroll-\(name).svg"
                                  pictures[name] = "\(context.urls.base.url)/assets/\(path)" + (site.assets.files[path].map { "?v=\($0.version)" } ?? "")
                              })
        return .html(try renderer.render("enroll", page))
    }

    /// Whether profiles go out signed: an identity was imported and libcrypto can be loaded.
    static func canSign(_ snapshot: DistributionSnapshot) -> Bool {
        snapshot.signingIdentity != nil && CryptoLibrary.isAvailable
    }

    /// `GET /t/<token>/enroll.mobileconfig`: a Profile Service profile with a fresh challenge,
    /// signed when the home has a signing identity and libcrypto is there, else unsigned.
    func enrollmentProfile(_ request: Request, _ context: Context) async throws -> Response {
        let tester = try context.require(TesterRequest.self)
        let settings = tester.snapshot.settings
        let identity = tester.snapshot.signingIdentity
        let enrollment = DeviceEnrollment(home: home)
        let now = self.now
        let replyURL = tester.urls.enroll
        let testerID = tester.tester.id
        let log = context.log
        let bytes = try await pool.run { () throws -> [UInt8] in
            let challenge = try enrollment.issueChallenge(testerID: testerID, now: now)
            let profile = EnrollmentProfile.make(replyURL: replyURL, challenge: challenge, brandName: settings.brandName,
                                                 publicURL: settings.publicURL, uuid: UUID().uuidString)
            let unsigned = try profile.xmlBytes()
            guard let identity else { return unsigned }
            do {
                let signer = try CMSSigningIdentity(certificates: Array(identity.certificatePEM.utf8), privateKey: Array(identity.privateKeyPEM.utf8))
                return try signer.sign(unsigned)
            } catch {
                // Unsigned still enrols the device (Settings says "Not Verified"); the log says why.
                log.message("warning: the enrolment profile was served unsigned: \(SigningIdentityError.cannotSign("\(error)", command: "signing-identity"))")
                return unsigned
            }
        }
        return .bytes(bytes, contentType: "application/x-apple-aspen-config")
    }

    /// `POST /t/<token>/enroll`: the device's signed reply. Always `301 Moved Permanently` to a
    /// result page, whatever was posted, since iOS treats any other answer as an invalid profile.
    func enrollmentReply(_ request: Request, _ context: Context) async -> Response {
        let snapshot: DistributionSnapshot
        do { snapshot = try await snapshots.current().snapshot } catch {
            context.log.message("error: request \(context.requestID) enrolment reply: \(error)")
            return Self.redirect(to: PublicBase(request: request, publicURL: home.settings.publicURL).url + "/enroll/unavailable")
        }
        let base = PublicBase(request: request, publicURL: snapshot.settings.publicURL)
        // An unknown link gets the same "nothing here" page as everywhere, without echoing the token.
        guard let token = request.parameters["token"], let tester = snapshot.tester(token: token) else {
            return Self.redirect(to: base.url + "/enroll/unknown-link")
        }
        let urls = TesterURLs(base: base, token: token)
        // The link's allowance first: a post it refuses does not spend the address's, so one link
        // flooding from an office's address leaves the other testers there their share.
        let limited: String? = if enrollmentLimits.perTester.take("tester:\(tester.id)") != nil {
            Self.rateLimitedLinkReference
        } else if enrollmentLimits.perAddress.take("address:\(request.clientAddress)") != nil {
            Self.rateLimitedAddressReference
        } else {
            nil
        }
        if let limited {
            context.log.message("enrolment: request \(context.requestID) for tester \(tester.id): \(limited)")
            return Self.redirect(to: urls.enrollmentResult(limited))
        }
        let body = (try? request.body.bytes(limit: Int64(DeviceEnrollment.maxReplySize))) ?? []
        let tooLarge = request.bodyExceededLimit || request.body.count > Int64(DeviceEnrollment.maxReplySize)
        let enrollment = DeviceEnrollment(home: home, acceptsUnverified: configuration.enrollment.acceptsUnverified,
                                          openRequestLimit: configuration.enrollment.openRequestsPerTester)
        let now = self.now
        do {
            let result = try await pool.run { try enrollment.receive(body, bodyTooLarge: tooLarge, testerID: tester.id, now: now) }
            if result.outcome.isAccepted { snapshots.invalidate() }
            let detail = result.detail.map { ": \($0)" } ?? ""
            context.log.message("enrolment: request \(context.requestID) for tester \(tester.id): \(result.outcome.rawValue)\(detail)")
            return Self.redirect(to: urls.enrollmentResult(result.reference))
        } catch {
            context.log.message("error: request \(context.requestID) enrolment reply for tester \(tester.id) could not be recorded: \(error)")
            return Self.redirect(to: urls.enrollmentResult(Self.serverErrorReference))
        }
    }

    /// The result reference that names a reply the server could not record.
    static let serverErrorReference = "server-error"
    /// The result references of replies turned away by the rate limit, per link and per address
    /// (nothing is recorded for them, so a flood writes nothing).
    static let rateLimitedLinkReference = "rate-limited"
    static let rateLimitedAddressReference = "rate-limited-address"

    static func redirect(to location: String) -> Response {
        Response(status: .movedPermanently, headers: ["Location": location, "Content-Type": "text/plain; charset=utf-8"],
                 body: .bytes(Array("Moved Permanently\n".utf8)))
    }

    /// `GET /t/<token>/enroll/done/<reference>`: what one reply led to.
    func enrollmentResultPage(_ request: Request, _ context: TesterRequest) async throws -> Response {
        let settings = context.snapshot.settings
        let chrome = site.chrome(request, title: "\(settings.brandName): device registration", settings: settings, base: context.urls.base)
        let reference = try request.parameters.require("reference")
        let page: EnrollResultPage
        if reference == Self.serverErrorReference {
            page = EnrollResultPage(serverErrorChrome: chrome, testerPageURL: context.urls.page, enrollURL: context.urls.enroll)
        } else if reference == Self.rateLimitedLinkReference || reference == Self.rateLimitedAddressReference {
            let limits = configuration.enrollment
            page = reference == Self.rateLimitedLinkReference
                ? EnrollResultPage(rateLimitedChrome: chrome, outcome: reference, scope: "this link", perMinute: limits.postsPerMinute, burst: limits.burst,
                                   testerPageURL: context.urls.page, enrollURL: context.urls.enroll)
                : EnrollResultPage(rateLimitedChrome: chrome, outcome: reference, scope: "your network address", perMinute: limits.postsPerMinutePerAddress,
                                   burst: limits.burstPerAddress, testerPageURL: context.urls.page, enrollURL: context.urls.enroll)
        } else {
            let enrollment = DeviceEnrollment(home: home)
            let testerID = context.tester.id
            guard let result = try await pool.run({ try enrollment.result(reference: reference, testerID: testerID) }) else {
                throw WebError.notFound
            }
            var accepted = EnrollResultPage(chrome: chrome, result: result, testerName: context.tester.name, testerPageURL: context.urls.page,
                                            enrollURL: context.urls.enroll)
            if let udid = result.udid, let provisioning = context.snapshot.provisioning[udid.value.uppercased()] { accepted.show(provisioning) }
            page = accepted
        }
        return .html(try renderer.render("enroll-result", page))
    }
}
