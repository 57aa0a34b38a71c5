import BetaKit
import BetaServer

/// The SDKs' crash endpoints: HockeySDK's two, KSCrash's standard sink and the raw
/// `POST /api/v1/crashes`, each authenticated by an app's ingest key. Holds only what intake
/// needs: crash intake itself, its limits, the blocking pool, and the home (for the spool
/// directory of large form parts).
struct IntakeController: Sendable {
    let home: Home
    let pool: BlockingPool
    let crashes: CrashIntake
    let limits: CrashIntakeConfiguration
}
