#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaServer

/// The JSON API under `/api/v1`: every operation (`operations`, which the OpenAPI document is
/// made from), each behind `APITokenAuth` for its scope, answering problems (RFC 9457) on
/// failure. Holds only what the operations need; what it shares with the dashboard is `actions`.
struct APIController: Sendable {
    let home: Home
    let pool: BlockingPool
    let snapshots: SnapshotStore
    let crashes: CrashIntake
    /// Describes the raw crash endpoint, which is routed with the SDK endpoints.
    let intake: IntakeController
    let webhooks: WebhookWorker
    let provisioning: ProvisioningWorker
    /// Uploads, roster and device reads the dashboard does too.
    let actions: WebActions
    /// Turns away uploads without a live token before their body is read.
    let headChecks: UploadHeadChecks
    /// Update checks per credential and address.
    let updateLimiter: RateLimiter
    let configuration: WebConfiguration

    /// The current time.
    var now: Date { configuration.now() }
}
