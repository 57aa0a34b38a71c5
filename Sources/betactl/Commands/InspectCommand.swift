#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import PosixIO

/// `betactl inspect FILE...`: what betactl makes of any Apple file, told by its bytes.
enum InspectCommand: SynchronousCommand {
    static let spec = CommandSpec(
        name: "inspect", summary: "Show what a profile, build, dSYM, crash or diagnostic report, .mobileconfig or device file holds.",
        arguments: [ArgumentSpec(name: "FILE", help: "A file or bundle folder to inspect. Several may be given.", isRepeated: true)],
        options: [.flag("--json", "Print one JSON object per file (an array for several), with a stable \"kind\" and its fields.")],
        discussion: """
        Files are recognised by their bytes, never by their name: provisioning-profile, ipa, xcarchive, app, dsym, macho, \
        crash-report, jetsam-report, diagnostic-report, kscrash-report, kscrash-batch, hockeyapp-crash-xml, plcrash, mobileconfig, \
        device-enrollment-reply, device-list, plist and png. Needs no betactl home. A file betactl does not know, or a \
        damaged file of a known kind, is named on standard error with what it looks like or what is damaged (exit 65); \
        the other files are still inspected.
        """,
        group: .crashes)

    static func runSynchronously(_ invocation: Invocation) throws {
        let paths = invocation.arguments.arguments("FILE")
        guard !paths.isEmpty else { throw invocation.usageError("give the file to inspect (betactl inspect FILE)") }
        let json = invocation.arguments.flag("--json")
        let work = try workDirectory(invocation.environment)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let inspector = Inspector(now: invocation.now, workDirectory: work)
        var objects: [String] = []
        var failures: [InspectionError] = []
        for (position, path) in paths.enumerated() {
            do {
                let inspection = try inspector.inspect(path: path)
                if json {
                    objects.append(try encode(inspection))
                } else {
                    if position > 0 { invocation.print() }
                    invocation.console.writeOut(InspectText.render(inspection, style: invocation.style))
                }
            } catch let error as InspectionError {
                failures.append(error)
                if json { objects.append(try encode(Failure(error, path: path))) }
                if paths.count > 1 { invocation.console.writeError(invocation.errorStyle.red("error:") + " \(error)\n") }
            }
        }
        if json {
            invocation.console.writeOut((paths.count > 1 ? "[\n" + objects.joined(separator: ",\n") + "\n]" : objects.joined()) + "\n")
        }
        guard let first = failures.first else { return }
        if paths.count == 1 { throw first }
        let category: ErrorCategory = failures.allSatisfy { $0.category == .invalidInput } ? .invalidInput : .failed
        throw CommandFailure(description: "\(failures.count) of \(paths.count) files could not be inspected; the others were", category: category)
    }

    /// What `--json` prints for a file that could not be inspected.
    struct Failure: Encodable {
        var path: String
        var kind: String?
        var error: String

        init(_ failure: InspectionError, path: String) {
            self.path = path
            kind = failure.kind?.rawValue
            error = failure.description
        }
    }

    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// A private scratch folder for zip entries: under TMPDIR, else /tmp. No home is needed.
    static func workDirectory(_ environment: [String: String]) throws -> String {
        let base = environment["TMPDIR"].flatMap { $0.hasPrefix("/") && FileManager.default.isWritableFile(atPath: $0) ? $0 : nil } ?? "/tmp"
        do {
            return try FileSystem.makeTemporaryDirectory(template: (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/betactl-inspect-XXXXXX")
        } catch {
            throw FileSystemError(operation: "create directory", path: base + "/betactl-inspect-XXXXXX", errno: error.errno)
        }
    }
}
