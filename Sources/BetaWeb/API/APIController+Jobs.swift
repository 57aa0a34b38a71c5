#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaJSON
import BetaServer

/// `PUT /api/v1/apple/auto`'s body.
struct AutoProvisioningBody: APIRequestBody {
    var enabled: Bool
    var window: Int?
    static let fields = ["enabled", "window"]
}

extension APIController {
    /// The automatic provisioning flow: its switch, and the job queue it fills (as `apple auto` and
    /// `betactl jobs`). Everything runs on the blocking pool; the jobs themselves run in the server's
    /// provisioning worker.
    var jobOperations: [APIOperation] {
        [
            APIOperation(method: .get, path: "/apple/auto", scope: .admin, operationID: "getAutoProvisioning", tag: "Provisioning",
                         summary: "Whether approved devices are provisioned automatically, the batching window, the approval rule, and what the flow lacks (`apple auto status`).",
                         outcomes: [.init(status: 200, description: "The switch.", schema: .ref("AutoProvisioning"))]) { [self] _ in
                let home = self.home
                return try Response.api(JobJSON.auto(try await pool.run { try AutoProvisioning(home: home).status() }))
            },
            APIOperation(method: .put, path: "/apple/auto", scope: .admin, operationID: "setAutoProvisioning", tag: "Provisioning",
                         summary: "Turn automatic provisioning on or off and set the batching window (`apple auto on|off --window`). On needs a key, a code-signing identity and an approval rule: 409 names each one missing.",
                         body: .init(mediaType: "application/json", schema: .ref("AutoProvisioningChange"), description: "On or off, and the window."),
                         outcomes: [.init(status: 200, description: "The switch as it is now.", schema: .ref("AutoProvisioning"))]) { [self] call in
                let body = try call.request.apiBody(AutoProvisioningBody.self)
                let home = self.home
                let status = try await pool.run { () throws -> AutoProvisioning.Status in
                    let auto = AutoProvisioning(home: home)
                    if body.enabled { return try auto.turnOn(window: body.window) }
                    _ = try auto.turnOff()
                    return try body.window.map { try auto.setWindow($0) } ?? auto.status()
                }
                return try Response.api(JobJSON.auto(status))
            },
            APIOperation(method: .get, path: "/jobs", scope: .admin, operationID: "listJobs", tag: "Provisioning",
                         summary: "The provisioning jobs, newest first, with state, step, attempts and last error (`betactl jobs`).",
                         outcomes: [.init(status: 200, description: "The jobs.", schema: .ref("JobList"))]) { [self] _ in
                let home = self.home
                let jobs = try await pool.run { try JobQueue(home: home).jobs() }
                return try Response.api(JobListJSON(jobs: jobs.map(JobJSON.job)))
            },
            APIOperation(method: .post, path: "/jobs/:id/retry", scope: .admin, operationID: "retryJob", tag: "Provisioning",
                         summary: "Run a failed or cancelled job (or one waiting to retry) again now, from the step it reached (`jobs retry`).",
                         outcomes: [.init(status: 200, description: "The job, queued.", schema: .ref("Job"))]) { [self] call in
                let id = try Self.jobID(call.request)
                let home = self.home, now = self.now
                let job = try await pool.run { try JobQueue(home: home).retry(id: id, now: now) }
                provisioning.wake()
                return try Response.api(JobJSON.job(job))
            },
            APIOperation(method: .post, path: "/jobs/:id/cancel", scope: .admin, operationID: "cancelJob", tag: "Provisioning",
                         summary: "Cancel a job that has not finished (`jobs cancel`); what it already did at Apple stays done.",
                         outcomes: [.init(status: 200, description: "The job, cancelled.", schema: .ref("Job"))]) { [self] call in
                let id = try Self.jobID(call.request)
                let home = self.home, now = self.now
                return try Response.api(JobJSON.job(try await pool.run { try JobQueue(home: home).cancel(id: id, now: now) }))
            },
        ]
    }

    /// The `{id}` of a job path.
    static func jobID(_ request: Request) throws -> Int64 {
        guard let text = request.parameters["id"], let id = Int64(text), id > 0 else {
            throw APIProblem(.notFound, "there is no job \(request.parameters["id"] ?? ""); list them with GET /api/v1/jobs")
        }
        return id
    }

    /// `GET /jobs`'s answer.
    struct JobListJSON: Encodable, Sendable {
        var jobs: [JobJSON.JobEntry]
    }

    /// The schemas of the provisioning operations.
    static var jobSchemas: [String: JSONSchema] {
        [
            "Job": .object([
                .required("id", .integer(minimum: 1)), .required("kind", .text, "`register-device` or `refresh-apps`."),
                .required("state", .string(values: Job.State.allCases.map(\.rawValue))),
                .required("step", .text, "The step reached: `register`, `registered`, `batching`, `profiles`, `resign` or `ready`."),
                .optional("subject", .text, "The UDIDs it is about."), .required("attempts", .integer(minimum: 0)),
                .optional("nextAttempt", .timestamp), .optional("lastError", .text, "The last failure: a sentence naming the problem and the fix."),
                .required("created", .timestamp), .required("updated", .timestamp), .optional("finished", .timestamp),
            ], description: "A job of the automatic provisioning flow."),
            "JobList": .object([.required("jobs", .array(.ref("Job")))]),
            "AutoProvisioning": .object([
                .required("enabled", .boolean()), .required("window", .integer(description: "The batching window, seconds.", minimum: 0)),
                .required("missing", .array(.text), "What the flow lacks, each naming the command that provides it."),
                .required("rule", .ref("ApprovalRule")),
            ]),
            "AutoProvisioningChange": .object([
                .required("enabled", .boolean()), .optional("window", .integer(description: "Seconds, 0 to 86400.", minimum: 0)),
            ]),
        ]
    }
}
