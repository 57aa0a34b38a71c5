import BetaKit
import BetaJSON

/// `betactl jobs [list|retry ID|cancel ID|run] [--json]`: the durable job queue of the automatic
/// provisioning flow.
enum JobsCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "jobs", summary: "List the provisioning jobs; retry, cancel, or run the due ones now.",
        arguments: [
            ArgumentSpec(name: "ACTION", help: "list (the default), retry, cancel or run.", isOptional: true),
            ArgumentSpec(name: "ID", help: "retry and cancel: the job's number.", isOptional: true),
        ],
        options: [
            .flag("--active", "list: only jobs that have not finished."),
            .json,
        ],
        discussion: "With `apple auto on`, each approved device request queues a register-device job (register the device with Apple, or find it registered); devices registered within the batching window share one refresh-apps job (regenerate each affected app's profiles, re-sign the newest release offered to the devices' testers, publish it in place of the one it came from, tell the tester). `betactl serve` runs them; `jobs run` runs the due ones here and now. A transient failure (Apple unreachable, 429, 5xx) waits and retries; a permanent one stops the job with a sentence naming the fix, sent as a job.failed webhook. `retry ID` runs a failed or cancelled job again from the step it reached.",
        group: .profiles)

    static func run(_ invocation: Invocation) async throws {
        let args = invocation.arguments
        let home = try invocation.openHome()
        let queue = JobQueue(home: home)
        let action = args.argument("ACTION") ?? "list"
        switch action {
        case "list":
            if let extra = args.argument("ID") { throw invocation.usageError("jobs list takes no argument (got \(extra))") }
            try list(try queue.jobs(activeOnly: args.flag("--active")), invocation)
        case "retry", "cancel":
            guard let text = args.argument("ID"), let id = Int64(text), id > 0 else {
                throw invocation.usageError("jobs \(action) needs the job's number (see `betactl jobs`)")
            }
            let job = action == "retry" ? try queue.retry(id: id, now: invocation.now) : try queue.cancel(id: id, now: invocation.now)
            if args.flag("--json") { return try invocation.printJSON(JobJSON.job(job)) }
            invocation.print(action == "retry" ? "Job \(id) is queued again from step \(job.step); `betactl serve` (or `betactl jobs run`) runs it."
                : "Cancelled job \(id) at step \(job.step).")
        case "run":
            if let extra = args.argument("ID") { throw invocation.usageError("jobs run takes no argument (got \(extra))") }
            let ran = try Provisioner(home: home).runDue()
            if args.flag("--json") { return try invocation.printJSON(ran.map(JobJSON.job)) }
            if ran.isEmpty { invocation.print("No job is due.") }
            for job in ran { invocation.print(line(job)) }
            if let failed = ran.last(where: { $0.state == .failed }) {
                throw CommandFailure(description: "job \(failed.id) failed: \(failed.lastError ?? "no reason recorded")")
            }
        default:
            throw invocation.usageError("jobs \(action) is not an action; use list, retry ID, cancel ID or run")
        }
    }

    static func list(_ jobs: [Job], _ invocation: Invocation) throws {
        if invocation.arguments.flag("--json") { return try invocation.printJSON(jobs.map(JobJSON.job)) }
        guard !jobs.isEmpty else {
            invocation.print("No jobs. With `betactl apple auto on`, each approved device request queues one.")
            return
        }
        var table = Table(headers: ["ID", "KIND", "STATE", "STEP", "ATTEMPTS", "SUBJECT", "LAST ERROR"])
        for job in jobs {
            table.rows.append([String(job.id), job.kind, job.state.rawValue, job.step, String(job.attempts), job.subject ?? "", job.lastError ?? ""])
        }
        invocation.console.writeOut(table.render(style: invocation.style))
    }

    static func line(_ job: Job) -> String {
        let error = job.lastError.map { ": \($0)" } ?? ""
        return "Job \(job.id) (\(job.kind)) \(job.state.rawValue) at step \(job.step)\(error)"
    }
}
