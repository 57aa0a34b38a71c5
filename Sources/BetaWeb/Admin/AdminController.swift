#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer

/// The dashboard under `/admin`: server-rendered pages with plain HTML forms behind a session
/// cookie, every post checked for its scope and CSRF token. Holds only what its pages need; what
/// it shares with the API is `actions`.
struct AdminController: Sendable {
    let home: Home
    let pool: BlockingPool
    let snapshots: SnapshotStore
    let renderer: PageRenderer
    let assets: WebAssets
    let crashes: CrashIntake
    let webhooks: WebhookWorker
    let provisioning: ProvisioningWorker
    /// Uploads, roster and device reads the API does too.
    let actions: WebActions
    /// Turns away uploads without a live session before their body is read.
    let headChecks: UploadHeadChecks
    /// Failed logins per address.
    let loginThrottle: LoginThrottle
    let configuration: WebConfiguration

    /// The current time.
    var now: Date { configuration.now() }
}
