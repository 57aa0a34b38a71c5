import BetaKit
import BetaJSON

/// `betactl apple auto on|off|status [--window SECONDS] [--json]`.
enum AppleAutoAction {
    static func run(_ invocation: Invocation, values: [String]) throws {
        guard values.count <= 1 else { throw invocation.usageError("apple auto takes one of on, off or status (got \(values.joined(separator: " ")))") }
        let auto = AutoProvisioning(home: try invocation.openHome())
        var window: Int?
        if let text = invocation.arguments.value("--window") {
            guard let seconds = Int(text), (0 ... AutoProvisioning.maximumWindow).contains(seconds) else {
                throw CommandFailure(description: JobError.invalidWindow(text).description, category: .invalidInput)
            }
            window = seconds
        }
        let status: AutoProvisioning.Status
        switch values.first ?? "status" {
        case "on": status = try auto.turnOn(window: window)
        case "off":
            _ = try auto.turnOff()
            status = try window.map { try auto.setWindow($0) } ?? auto.status()
        case "status": status = try window.map { try auto.setWindow($0) } ?? auto.status()
        case let other: throw invocation.usageError("apple auto \(other) is not an action; use on, off or status")
        }
        if invocation.arguments.flag("--json") { return try invocation.printJSON(JobJSON.auto(status)) }
        invocation.print("Automatic provisioning: \(status.enabled ? "on" : "off") (batching window \(status.window) s)")
        invocation.print("Approval rule: \(status.rule)")
        for missing in status.missing { invocation.print("Missing: \(missing)") }
        if status.enabled {
            invocation.print("Approved devices are registered with Apple, their apps' profiles regenerated and the newest builds re-signed; see `betactl jobs`.")
        }
    }
}
