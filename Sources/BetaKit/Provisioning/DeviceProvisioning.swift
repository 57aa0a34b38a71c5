#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the automatic flow stands for one device, as its tester's page tells it. Only devices
/// with work pending or stopped have one; a device whose batch finished shows what its newest
/// build means for it, as any device does.
public enum DeviceProvisioning: String, Sendable, Equatable {
    /// Its registration with Apple is queued or running.
    case registering
    /// Registered; its batch (profiles and the re-signed build) is pending or running.
    case preparing
    /// A job for it stopped for good; the team was told (`job.failed`).
    case failed

    /// The columns of the jobs `load(db:)` reads.
    static let columns = SQLColumns(["kind", "state", "subject", "payload"])

    /// The state of every device with a register-device job, by upper-cased UDID, read inside the
    /// caller's transaction from the newest jobs.
    static func load(db: SQLiteConnection) throws -> [String: DeviceProvisioning] {
        var registration: [String: Job.State] = [:]
        var batches: [String: Job.State] = [:]
        let rows = try db.query("SELECT \(columns.list) FROM jobs WHERE kind IN (?, ?) ORDER BY id DESC LIMIT 1000",
                                [.text(JobKind.registerDevice.rawValue), .text(JobKind.refreshApps.rawValue)])
        for found in rows {
            let row = columns.reader(found)
            let state = try row.required("state", as: Job.State.self)
            if try row.text("kind") == JobKind.registerDevice.rawValue {
                if let udid = try row.optionalText("subject")?.uppercased(), registration[udid] == nil { registration[udid] = state }
            } else if let batch = try? JSONDecoder().decode(ProvisioningPayload.Batch.self, from: Data(try row.text("payload").utf8)) {
                // A batch whose payload does not decode (an older version's) names no devices.
                for udid in batch.udids.map({ $0.uppercased() }) where batches[udid] == nil { batches[udid] = state }
            }
        }
        var result: [String: DeviceProvisioning] = [:]
        for (udid, state) in registration {
            switch state {
            case .queued, .running, .waiting: result[udid] = .registering
            case .failed: result[udid] = .failed
            case .cancelled: break
            case .succeeded:
                switch batches[udid] {
                case .queued?, .running?, .waiting?, nil: result[udid] = .preparing
                case .failed?: result[udid] = .failed
                case .succeeded?, .cancelled?: break
                }
            }
        }
        return result
    }
}
