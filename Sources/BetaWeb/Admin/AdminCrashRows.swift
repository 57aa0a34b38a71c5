#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AppleFormats
import BetaKit
import Mustache

extension AdminController {
    /// A crash group as the dashboard's pages show it.
    static func crashGroupRow(_ group: CrashGroup, names: CrashPageNames) -> [String: MustacheValue] {
        ["signature": .string(group.signatureKey), "title": .string(group.title), "exceptionType": .string(group.exceptionType),
         "frames": .list(group.frames.map(MustacheValue.string)), "count": .int(group.count),
         "firstSeen": .string(crashTime(group.firstSeenAt)), "lastSeen": .string(crashTime(group.lastSeenAt)),
         "releases": .list(group.releaseIDs.map { ["id": .string(String($0)), "name": .string(names.release($0))] }),
         "hasReleases": .bool(!group.releaseIDs.isEmpty),
         "testers": .list(group.testerIDs.map(names.testerValue)),
         "hasTesters": .bool(!group.testerIDs.isEmpty), "testerCount": .int(group.testerIDs.count),
         "representative": .string(String(group.representativeID))]
    }

    /// A report as the dashboard's lists show it.
    static func crashReportRow(_ record: CrashRecord, names: CrashPageNames) -> MustacheValue {
        .object(crashReportFields(record, names: names))
    }

    static func crashReportFields(_ record: CrashRecord, names: CrashPageNames) -> [String: MustacheValue] {
        func optional(_ text: String?) -> MustacheValue { text.map(MustacheValue.string) ?? .null }
        var app = record.processName ?? record.fileName ?? "Report \(record.id)"
        if let version = record.appVersion { app += " \(version)" }
        if let build = record.appBuild, build != record.appVersion { app += " (\(build))" }
        return [
            "id": .string(String(record.id)), "app": .string(app), "received": .string(crashTime(record.receivedAt)),
            "status": .string(record.status.rawValue), "statusClass": .string(statusClass(record.status)),
            "summary": optional(record.summary ?? record.error), "error": optional(record.error),
            "release": record.releaseID.map { ["id": .string(String($0)), "name": .string(names.release($0))] } ?? .null,
            "tester": record.testerID.map(names.testerValue) ?? .null,
            "device": optional(record.deviceUDID), "model": optional(record.hardwareModel.map(DeviceModelName.displayName(forModelCode:))),
            "modelCode": optional(record.hardwareModel), "os": optional(record.osVersion), "incident": optional(record.incidentIdentifier),
            "crashed": optional(record.crashedAt), "exceptionType": optional(record.exceptionType), "format": optional(record.format),
            "sha256": .string(record.sha256), "size": .string(byteCount(record.size)), "uploadCount": .int(record.uploadCount),
            "severalUploads": .bool(record.uploadCount > 1), "lastReceived": .string(crashTime(record.lastReceivedAt)),
            "processed": record.processedAt.map { .string(crashTime($0)) } ?? .null,
            "group": optional(record.signatureKey),
        ]
    }

    /// "2026-05-06 10:11 UTC": reports arrive many a day, so the lists show the time too.
    static func crashTime(_ date: Date) -> String {
        let stamp = Timestamp.string(date)  // 2026-05-06T10:11:12Z
        return String(stamp.prefix(10)) + " " + String(stamp.dropFirst(11).prefix(5)) + " UTC"
    }

    /// The flag colour of a status: resolved, waiting for symbols or low on memory, or failed.
    static func statusClass(_ status: CrashStatus) -> String {
        switch status {
        case .symbolicated: "ok"
        case .partial, .lowMemory: "warn"
        case .unreadable: "bad"
        case .queued, .other: "plain"
        }
    }
}

extension CrashPageContent {
    /// Everything `admin-crash.html` shows.
    var mustacheValues: [String: MustacheValue] {
        var values: [String: MustacheValue] = [
            "report": .object(AdminController.crashReportFields(record, names: names)),
            "raw": .string("/admin/crashes/\(record.id)/raw"),
            "group": group.map { .object(AdminController.crashGroupRow($0, names: names)) } ?? .null,
            "uploads": .list(uploads.map { upload in
                ["received": .string(AdminController.crashTime(upload.receivedAt)), "source": .string(upload.source.rawValue),
                 "tester": upload.testerID.map(names.testerValue) ?? .null,
                 "user": upload.userID.map(MustacheValue.string) ?? .null, "contact": upload.contact.map(MustacheValue.string) ?? .null,
                 "description": upload.description.map(MustacheValue.string) ?? .null,
                 "fileName": upload.fileName.map(MustacheValue.string) ?? .null]
            }),
        ]
        if let symbolicated { values["crash"] = Self.crash(symbolicated) }
        if let lowMemory { values["lowMemory"] = Self.memory(lowMemory) }
        return values
    }

    /// A crash: its exception, the app images without symbols, the exception backtrace, the
    /// crashed thread and the others.
    static func crash(_ result: SymbolicatedReport) -> MustacheValue {
        let report = result.report
        let wide = report.codeType.map { $0.contains("64") } ?? report.images.contains { $0.loadAddress > UInt64(UInt32.max) }
        let threads = result.threads
        func thread(_ thread: SymbolicatedReport.Thread) -> MustacheValue {
            ["number": .int(thread.number), "title": .string("Thread \(thread.number)\(thread.crashed ? " crashed" : "")"), "crashed": .bool(thread.crashed),
             "name": thread.name.map(MustacheValue.string) ?? .null, "queue": thread.queue.map(MustacheValue.string) ?? .null,
             "frames": .list(thread.frames.map { frame($0, report: report, wide: wide) }), "frameCount": .int(thread.frames.count)]
        }
        let crashed = threads.filter(\.crashed)
        let exception = report.exception
        let missing = result.imagesWithoutSymbols.filter(\.isAppImage)
        return [
            "exception": exception.map { exception in
                ["type": exception.type.map(MustacheValue.string) ?? .null, "signal": exception.signal.map(MustacheValue.string) ?? .null,
                 "codes": exception.codes.map(MustacheValue.string) ?? .null, "subtype": exception.subtype.map(MustacheValue.string) ?? .null,
                 "note": exception.note.map(MustacheValue.string) ?? .null]
            } ?? .null,
            "termination": report.terminationReason.map(MustacheValue.string) ?? .null,
            "applicationInfo": report.applicationSpecificInformation.map(MustacheValue.string) ?? .null,
            "signature": .string(result.signature.description),
            "missing": .list(missing.map { ["name": .string($0.name), "uuid": .string($0.uuid?.uuidString ?? "no UUID"), "reason": .string($0.reason)] }),
            "hasMissing": .bool(!missing.isEmpty),
            "backtrace": result.lastExceptionBacktrace.map { frames in ["frames": .list(frames.map { frame($0, report: report, wide: wide) })] } ?? .null,
            "crashedThreads": .list(crashed.map(thread)),
            "otherThreads": .list(threads.filter { !$0.crashed }.map(thread)),
            "hasOtherThreads": .bool(threads.contains { !$0.crashed }),
        ]
    }

    /// One frame: its number, image and address, and each source location (innermost inlined
    /// function first), or what is known without symbols.
    static func frame(_ frame: SymbolicatedReport.Frame, report: CrashReport, wide: Bool) -> MustacheValue {
        let hex = String(frame.frame.address, radix: 16)
        let address = "0x" + String(repeating: "0", count: max(0, (wide ? 16 : 8) - hex.count)) + hex
        let image = frame.image?.name ?? frame.frame.imageName ?? "???"
        var lines: [MustacheValue] = frame.locations.map { location in
            var function = location.function ?? location.rawFunction ?? "???"
            if location.file == nil, !location.inlined, let offset = location.symbolOffset { function += " + \(offset)" }
            return ["function": .string(function), "location": sourceLocation(location.file, location.line), "inlined": .bool(location.inlined),
                    "path": location.file.map(MustacheValue.string) ?? .null]
        }
        if lines.isEmpty {
            // Nothing resolved: what the report itself says, else the offset in the image.
            if let symbol = frame.frame.symbol {
                lines = [["function": .string(symbol + (frame.frame.symbolOffset.map { " + \($0)" } ?? "")),
                          "location": sourceLocation(frame.frame.sourceFile, frame.frame.sourceLine ?? 0), "inlined": false,
                          "path": frame.frame.sourceFile.map(MustacheValue.string) ?? .null]]
            } else {
                let offset = frame.imageOffset.map { "\(image) + 0x" + String($0, radix: 16) } ?? address
                lines = [["function": .string(offset), "location": .null, "inlined": false, "path": .null]]
            }
        }
        let app = frame.image.map(report.isAppImage) ?? false
        // The OS's own images never have symbols here: only app frames are flagged for lacking them.
        let flag: String? = switch frame.status {
        case .symbolicated: nil
        case .fromReport: "named by the report"
        case .noSymbols: app ? "no symbols" : nil
        case .notFound: "not in its symbols"
        case .noImage: "in no known image"
        }
        return ["number": .int(frame.frame.number), "image": .string(image), "address": .string(address),
                "app": .bool(app), "lines": .list(lines),
                "flag": flag.map(MustacheValue.string) ?? .null]
    }

    /// "Fixture.swift:12" (the file's last path component), nil without a file.
    static func sourceLocation(_ file: String?, _ line: Int) -> MustacheValue {
        guard let file, !file.isEmpty else { return .null }
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return .string(line > 0 ? "\(name):\(line)" : name)
    }

    /// How many processes a low-memory report's table lists, largest first.
    static let processesShown = 20

    /// A low-memory report: the page size, the largest processes with their pages and kill
    /// reasons, and every killed process.
    static func memory(_ report: JetsamReport) -> MustacheValue {
        func row(_ process: JetsamReport.Process) -> MustacheValue {
            ["name": .string(process.name), "pages": .int(process.residentPages),
             // In MB, as `show-crash` and the report's summary give it.
             "size": report.bytes(ofPages: process.residentPages).map { .string("\($0 >> 20) MB") } ?? .null,
             "reason": process.reason.map(MustacheValue.string) ?? .null,
             "states": process.states.isEmpty ? .null : .string(process.states.joined(separator: ", "))]
        }
        let killed = report.killedProcesses
        return ["pageSize": report.pageSize.map { .string("\($0) bytes") } ?? .null,
                "largestProcess": report.largestProcess.map(MustacheValue.string) ?? .null,
                "processes": .list(report.processesBySize.prefix(processesShown).map(row)), "processCount": .int(report.processes.count),
                "killed": .list(killed.map(row)), "hasKilled": .bool(!killed.isEmpty)]
    }
}
