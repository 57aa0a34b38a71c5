#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BetaKit
import BetaJSON
import BetaServer
import Mustache

extension AdminController {
    /// `/admin/provisioning`: the automatic flow's switch, the approval rule, and the job queue
    /// with retry and cancel. Changing anything needs the admin scope.
    func addProvisioningPages(_ admin: inout RouteGroup) {
        addAdminPage(&admin, "/provisioning") { [self] call in try await provisioningPage(call, failure: nil) }
        addAdminForm(&admin, "/provisioning/auto", scope: .admin) { [self] call, form in
            let home = self.home
            let enable = form["enabled"] == "true"
            do {
                let window = try form["window"].flatMap { text -> Int? in
                    let trimmed = WebActions.trimmedText(text)
                    if trimmed.isEmpty { return nil }
                    guard let seconds = Int(trimmed) else { throw JobError.invalidWindow(trimmed) }
                    return seconds
                }
                _ = try await pool.run { () throws -> AutoProvisioning.Status in
                    let auto = AutoProvisioning(home: home)
                    if enable { return try auto.turnOn(window: window) }
                    _ = try auto.turnOff()
                    return try window.map { try auto.setWindow($0) } ?? auto.status()
                }
                return Self.seeOther("/admin/provisioning", notice: enable ? .autoOn : .autoOff)
            } catch {
                return try await provisioningPage(call, failure: try WebActions.failure(error))
            }
        }
        addAdminForm(&admin, "/provisioning/rule", scope: .admin) { [self] call, form in
            let home = self.home, now = self.now
            do {
                let rule: ApprovalRule = switch form["mode"] ?? "" {
                case "all": .all
                case "group": .group(form["group"] ?? "")
                default: .off
                }
                try await pool.run { try DeviceRequests(home: home).setRule(rule, now: now) }
                return Self.seeOther("/admin/provisioning", notice: .ruleSaved)
            } catch {
                return try await provisioningPage(call, failure: try WebActions.failure(error))
            }
        }
        for action in ["retry", "cancel"] {
            addAdminForm(&admin, "/provisioning/jobs/:id/\(action)", scope: .admin) { [self] call, _ in
                let home = self.home, now = self.now
                do {
                    let id = Int64(call.request.parameters["id"] ?? "") ?? 0
                    _ = try await pool.run { () throws -> Job in
                        let queue = JobQueue(home: home)
                        return action == "retry" ? try queue.retry(id: id, now: now) : try queue.cancel(id: id, now: now)
                    }
                    if action == "retry" { provisioning.wake() }
                    return Self.seeOther("/admin/provisioning", notice: action == "retry" ? .jobRetried : .jobCancelled)
                } catch {
                    return try await provisioningPage(call, failure: try WebActions.failure(error))
                }
            }
        }
    }

    /// `GET /admin/provisioning`.
    func provisioningPage(_ call: AdminRequest, failure: (status: HTTPStatus, message: String, items: [String])?) async throws -> Response {
        let home = self.home
        let (status, jobs) = try await pool.run { () throws -> (AutoProvisioning.Status, [Job]) in
            (try AutoProvisioning(home: home).status(), try JobQueue(home: home).jobs(limit: 200))
        }
        var chrome = adminChrome("Provisioning", area: "/admin/provisioning", settings: call.settings, session: call.session)
        chrome.notice = Self.notice(call.request)
        chrome.error = failure?.message
        chrome.errorItems = failure?.items ?? []
        let rows: [MustacheValue] = jobs.map { job in
            let stateClass = switch job.state {
            case .succeeded: "good"
            case .failed: "bad"
            case .cancelled: "muted"
            default: "warn"
            }
            return ["id": .string(String(job.id)), "kind": .string(JobKind(rawValue: job.kind)?.label ?? job.kind),
                    "state": .string(job.state.rawValue), "stateClass": .string(stateClass), "step": .string(job.step),
                    "attempts": .string(String(job.attempts)), "subject": .string(job.subject ?? ""),
                    "error": job.lastError.map(MustacheValue.string) ?? .null,
                    "next": job.state == .waiting ? job.nextAttemptAt.map { .string(Timestamp.string($0)) } ?? .null : .null,
                    "updated": .string(Timestamp.string(job.updatedAt)),
                    "canRetry": .bool(job.state == .failed || job.state == .cancelled || job.state == .waiting),
                    "canCancel": .bool(!job.state.isFinished)]
        }
        var group = ""
        if case let .group(name) = status.rule { group = name }
        return try renderAdmin("admin-provisioning", chrome, [
            "enabled": .bool(status.enabled), "window": .string(String(status.window)),
            "missing": .list(status.missing.map(MustacheValue.string)), "hasMissing": .bool(!status.missing.isEmpty),
            "rule": .string(status.rule.description), "ruleAll": .bool(status.rule == .all), "ruleOff": .bool(status.rule == .off),
            "ruleGroup": .bool(!group.isEmpty), "group": .string(group),
            "jobs": .list(rows), "hasJobs": .bool(!rows.isEmpty),
            "pending": .bool(jobs.contains { !$0.state.isFinished }),
        ], status: failure?.status ?? .ok)
    }
}
