#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit

/// `betactl import-devices`: registers every device in an Apple device file, all or nothing.
enum ImportDevicesCommand: BetactlCommand {
    static let spec = CommandSpec(
        name: "import-devices", summary: "Import devices from Apple's tsv or .deviceids file (all or nothing).",
        arguments: [ArgumentSpec(name: "FILE", help: "A tab-separated device list or a .deviceids plist.")],
        options: [
            .value("--tester", "T", "Assign the devices to tester T (id, email or name)."),
            .value("--family", "F", "Family for ios devices whose name does not say (default iphone)."),
        ],
        discussion: "Apple's files only say ios or mac. An ios device's family is taken from its name (\"Ann's iPad\") or else --family; the output lists the devices whose family was assumed.")

    static func run(_ invocation: Invocation) async throws {
        let args = invocation.arguments
        let path = args.argument("FILE") ?? ""
        var defaultFamily = DeviceFamily.iphone
        if let name = args.value("--family") {
            guard let family = DeviceFamily(name: name) else { throw RosterError.unknownFamily(name) }
            defaultFamily = family
        }
        let bytes = try FileIO.readFile(path, limit: 16 << 20)
        let format: DeviceListFormat = DeviceListPlist.looksLikePlist(bytes) ? .deviceids : .tsv
        let entries: [DeviceListEntry]
        do {
            switch format {
            case .deviceids:
                entries = try DeviceListPlist.parse(Data(bytes))
            case .tsv:
                guard let text = String(validating: bytes, as: UTF8.self), !bytes.contains(0) else {
                    throw CommandFailure(description: "\(path) is not a UTF-8 text file; export it again as a tab-separated .txt or a .deviceids plist", category: .invalidInput)
                }
                entries = try DeviceListTSV.parse(text)
            }
        } catch let error as DeviceListError {
            throw DeviceImportError(file: path, problems: error.problems, hasFormatProblems: true)
        }
        guard !entries.isEmpty else {
            throw CommandFailure(description: "\(path) lists no devices; add lines of UDID<TAB>name<TAB>platform", category: .invalidInput)
        }
        let home = try invocation.openHome()
        let report = try Roster(home: home).importDevices(entries, format: format, file: path, tester: args.value("--tester"),
                                                          defaultFamily: defaultFamily, now: invocation.now)
        var summary = "Imported \(report.added.count) device\(report.added.count == 1 ? "" : "s") from \(path)"
        if !report.alreadyRegistered.isEmpty { summary += " (\(report.alreadyRegistered.count) already registered, left unchanged)" }
        invocation.print(summary + ".")
        if !report.assumedFamily.isEmpty {
            let count = report.assumedFamily.count
            let family = count == 1 ? report.defaultFamily.withArticle : report.defaultFamily.pluralName
            let unsaid = "\(count) ios device\(count == 1 ? " does" : "s do") not say \(count == 1 ? "its" : "their") kind"
            // With --family the user already chose; without it, say how to choose.
            let how = args.value("--family") == nil ? "; pass --family to choose another family" : ", as --family says"
            invocation.print("\(unsaid) and \(count == 1 ? "was" : "were") counted as \(family)\(how).")
        }
    }
}
