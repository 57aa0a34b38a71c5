#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit

/// `betactl check-signature PATH [--json]`: verifies a build's code signature as iOS does on install.
enum CheckSignatureCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "check-signature", summary: "Verify a build's code signature as iOS does: pages, sealed files, CMS signature, certificate.",
        arguments: [ArgumentSpec(name: "PATH", help: "An .ipa, .app, .xcarchive (folder or zip) or a lone Mach-O.")],
        options: [.json],
        discussion: "Checks every executable's page hashes, the Info.plist, entitlements and resources its signature seals, the CMS signature over each CodeDirectory, every file against _CodeSignature/CodeResources, nested code, and that the signing certificate is one of the embedded profile's. Needs no home. Exits 0 when the signature holds and 1 when iOS would refuse the build, naming each file that breaks it.",
        group: .profiles)

    static func run(_ invocation: Invocation) async throws {
        let path = invocation.arguments.argument("PATH") ?? ""
        let work = FileManager.default.temporaryDirectory.path + "/betactl-signature-\(UInt32.random(in: 0 ... UInt32.max))"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: work) }
        let report: BundleSignatureReport
        do {
            report = try CodeSignatureChecker(workDirectory: work).check(path: path)
        } catch {
            throw CommandFailure(description: "\(error)")
        }
        if invocation.arguments.flag("--json") {
            try invocation.printJSON(CodeSignatureSummary(path: path, report: report))
        } else {
            for line in CodeSignatureText.lines(report) { invocation.print(line) }
        }
        guard report.isValid else {
            let count = report.problems.count
            throw CommandFailure(description: "\(path): iOS would refuse this build (\(count) signature problem\(count == 1 ? "" : "s")):\n  - "
                + report.problems.map(\.description).joined(separator: "\n  - "))
        }
        if !invocation.arguments.flag("--json") {
            invocation.print("The code signature of \(path) is valid: \(report.executables.count) executable\(report.executables.count == 1 ? "" : "s") checked.")
        }
    }
}

/// The text rendering of a signature's structure, shared by `check-signature` and `inspect`.
enum CodeSignatureText {
    static func lines(_ report: BundleSignatureReport) -> [String] {
        var lines: [String] = []
        for executable in report.executables {
            lines.append("\(executable.path):")
            for slice in executable.slices {
                let signer = slice.signer.map { " signed by \"\($0.subject.commonName ?? "\($0.subject)")\"" } ?? ""
                lines.append("  \(slice.architecture): \(slice.identifier ?? "(no identifier)")\(slice.teamIdentifier.map { " team \($0)" } ?? "")\(signer)")
                for directory in slice.directories {
                    let slots = directory.boundSlots.map(\.description).joined(separator: ", ")
                    lines.append("    CodeDirectory 0x\(String(directory.version, radix: 16)) \(directory.hashType), \(directory.pageCount) pages of \(directory.pageSize), cdhash \(directory.cdHash)\(slots.isEmpty ? "" : "; seals \(slots)")")
                }
                var blobs: [String] = []
                if slice.hasRequirements { blobs.append("requirements") }
                if slice.hasEntitlements { blobs.append("entitlements") }
                if slice.hasDEREntitlements { blobs.append("DER entitlements") }
                if !blobs.isEmpty { lines.append("    blobs: \(blobs.joined(separator: ", "))") }
            }
        }
        return lines
    }
}
