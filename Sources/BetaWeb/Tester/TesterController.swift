#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer

/// A tester's side of the site, under `/t/<token>`: their page and release pages, OTA manifests,
/// downloads, icons and QR codes, device enrolment, and the crash form. Every route but the
/// enrolment reply sits behind `TesterAuth`, and its handler reads the resolved `TesterRequest`.
/// Holds only what those need.
struct TesterController: Sendable {
    let home: Home
    let pool: BlockingPool
    let snapshots: SnapshotStore
    let pages: PageCache
    let renderer: PageRenderer
    let site: SitePages
    let crashes: CrashIntake
    /// Reads the crash form's body as the SDK endpoints read theirs.
    let intake: IntakeController
    let configuration: WebConfiguration
    /// Enrolment replies per tester link and per client address.
    let enrollmentLimits: (perTester: RateLimiter, perAddress: RateLimiter)

    /// The current time.
    var now: Date { configuration.now() }

    /// The routes under `/t/<token>`.
    func addRoutes(to router: inout Router) {
        // Handlers run on the connection's event loop (see `BetaWebApplication.router`).
        let loop = RouteOptions(execution: .eventLoop)
        // Secret links: never sent on as a Referer, never stored by a cache, never compressed (their
        // pages reflect the Host header next to the token, which BREACH could turn into a leak).
        let tokenPages = SecurityHeadersMiddleware(fields: [("Referrer-Policy", "no-referrer"),
                                                            ("Cache-Control", "private, no-store")])
        // Tester routes read the tester `TesterAuth` resolved from the link's token.
        let auth = TesterAuth(snapshots: snapshots)
        router.group(TesterURLs.Pattern.group, middleware: [tokenPages, NoCompressionMiddleware()]) { links in
            links.group("", middleware: [auth]) { tester in
                tester.get("", options: loop) { request, context in try await testerPage(request, context.require(TesterRequest.self)) }
                tester.get(TesterURLs.Pattern.release, options: loop) { request, context in
                    try await releasePage(request, context.require(TesterRequest.self))
                }
                tester.get(TesterURLs.Pattern.manifest, options: loop) { request, context in
                    try await manifest(request, context.require(TesterRequest.self))
                }
                tester.get(TesterURLs.Pattern.package, options: loop) { request, context in
                    try await package(request, context.require(TesterRequest.self))
                }
                tester.get(TesterURLs.Pattern.icon, options: loop) { request, context in try await icon(request, context.require(TesterRequest.self)) }
                tester.get(TesterURLs.Pattern.qrSVG, options: loop) { request, context in
                    try await qrCode(request, context.require(TesterRequest.self), png: false)
                }
                tester.get(TesterURLs.Pattern.qrPNG, options: loop) { request, context in
                    try await qrCode(request, context.require(TesterRequest.self), png: true)
                }
                tester.post(TesterURLs.Pattern.crashes, options: RouteOptions(bodyLimit: crashPageBodyLimit, execution: .eventLoop)) { request, context in
                    try await testerCrashUpload(request, context.require(TesterRequest.self))
                }
            }
            addEnrollmentRoutes(to: &links, auth: auth)
        }
    }
}
