import AppleFormats
import BetaKit

/// The readable form of `inspect`: a heading with the kind, then aligned "Label: value" lines.
enum InspectText {
    /// Lines being built for one file.
    struct Lines {
        var rows: [(String, String)] = []

        mutating func add(_ label: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            rows.append((label, value))
        }

        mutating func add(_ label: String, list: [String], limit: Int = 12) {
            guard !list.isEmpty else { return }
            let shown = list.prefix(limit).joined(separator: ", ")
            rows.append((label, list.count > limit ? shown + ", … (\(list.count) in all)" : shown))
        }

        func text(extra: [String] = []) -> String {
            let width = (rows.map(\.0.count).max() ?? 0) + 2
            var out = ""
            for (label, value) in rows {
                let pad = String(repeating: " ", count: max(1, width - label.count - 1))
                out += "  \(label):\(pad)\(value.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n  " + String(repeating: " ", count: width + 1)))\n"
            }
            for line in extra { out += line + "\n" }
            return out
        }
    }

    static func render(_ inspection: FileInspection, style: Style) -> String {
        var lines = Lines()
        var extra: [String] = []
        var heading = inspection.kind.rawValue
        switch inspection.summary {
        case let .provisioningProfile(profile):
            heading += " (\(profile.type))"
            addProfile(profile, to: &lines)
        case let .bundle(bundle):
            addBundle(bundle, to: &lines, extra: &extra)
        case let .machO(machO):
            lines.add("Size", "\(machO.size) bytes\(machO.fat ? ", fat" : "")")
            for slice in machO.slices {
                var parts = [slice.uuid ?? "no UUID", slice.fileType]
                if let versions = slice.dwarfVersions { parts.append("DWARF " + versions.map(String.init).joined(separator: "/")) }
                if let identifier = slice.identifier { parts.append("signed as \(identifier)" + (slice.team.map { " (team \($0))" } ?? "")) }
                if let os = slice.minimumOS { parts.append("\(slice.platform ?? "OS") \(os)+") }
                if let problem = slice.problem { parts.append("problem: \(problem)") }
                lines.add(slice.arch, parts.joined(separator: ", ") + (slice.path.map { "  \($0)" } ?? ""))
            }
            if let signature = machO.signature { addSignature(signature, to: &lines, extra: &extra) }
        case let .crashReport(report):
            addCrash(report, to: &lines)
        case let .jetsam(report):
            lines.add("OS", report.os)
            lines.add("Hardware", report.hardwareModel)
            lines.add("Incident", report.incident)
            lines.add("Date", report.date)
            lines.add("Page size", report.pageSize.map { "\($0) bytes" })
            lines.add("Largest", report.largestProcess)
            lines.add("Killed", list: report.killed)
            for process in report.processes.prefix(10) {
                let size = process.bytes.map { " (\($0 / (1 << 20)) MiB)" } ?? ""
                let reason = process.reason.map { ", killed: \($0)" } ?? ""
                extra.append("    \(process.pages) pages\(size)  \(process.name)\(reason)")
            }
            if !extra.isEmpty { extra.insert("  Largest processes:", at: 0) }
        case let .diagnostic(report):
            heading += " (bug_type \(report.bugType)\(report.bugTypeName.map { ", \($0)" } ?? ""))"
            lines.add("Name", report.name)
            lines.add("OS", report.os)
            lines.add("Incident", report.incident)
            lines.add("Timestamp", report.timestamp)
            lines.add("Body", report.body + (report.bodyKeys.map { ": " + $0.prefix(10).joined(separator: ", ") } ?? "")
                + (report.firstLine.map { ": " + $0 } ?? ""))
        case let .kscrash(report):
            lines.add("Format", report.version + (report.reportType.map { " (\($0))" } ?? ""))
            lines.add("Process", report.process)
            lines.add("Bundle ID", report.bundleId)
            lines.add("Version", [report.appVersion, report.build.map { "(\($0))" }].compactMap { $0 }.joined(separator: " "))
            lines.add("OS", report.os)
            lines.add("Hardware", report.hardwareModel)
            lines.add("Timestamp", report.timestamp)
            if let exception = report.exception {
                lines.add("Exception", [exception.name, exception.reason, exception.address.map { "at \($0)" }].compactMap { $0 }.joined(separator: ": "))
            }
            addThread(report.crashedThread, to: &lines)
            if report.hasBinaryImages { addImages(report.images, to: &lines) } else { lines.add("Images", "none (the report has no binary_images)") }
        case let .kscrashBatch(batch):
            lines.add("Reports", "\(batch.count)")
            for entry in batch.reports {
                guard let report = entry.report else {
                    extra.append("  [\(entry.index)] cannot be read: \(entry.problem ?? "unknown problem")")
                    continue
                }
                let version = [report.appVersion, report.build.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
                let exception = report.exception.map { [$0.name, $0.reason].compactMap { $0 }.joined(separator: ": ") }
                extra.append("  [\(entry.index)] " + [report.process, version.isEmpty ? nil : version, report.timestamp, exception]
                    .compactMap { $0 }.joined(separator: ", "))
            }
        case let .hockeyApp(upload):
            lines.add("Bundle ID", upload.bundleId)
            lines.add("Version", [upload.versionString, upload.version.map { "(\($0))" }].compactMap { $0 }.joined(separator: " "))
            lines.add("Platform", [upload.platform, upload.systemVersion].compactMap { $0 }.joined(separator: ", "))
            lines.add("UUIDs", list: upload.uuids.map { "\($0.uuid) \($0.arch ?? "")".trimmingSpaces })
            if upload.crashes > 1 { lines.add("Crashes", "\(upload.crashes) (the first is shown)") }
            if let log = upload.log {
                lines.add("Log", "a \(log.format) crash report:")
                var inner = Lines()
                addCrash(log, to: &inner)
                extra.append(inner.text().split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
            } else {
                lines.add("Log", upload.logProblem.map { "unreadable: \($0)" })
            }
        case let .plcrash(file):
            lines.add("Format", "PLCrashReporter binary report, version \(file.formatVersion), \(file.payloadSize) bytes of protobuf")
            lines.add("Convert", file.convert)
        case let .mobileconfig(config):
            heading += " (\(config.payloadType)\(config.signed ? ", signed" : ", unsigned"))"
            lines.add("Name", config.displayName)
            lines.add("Organization", config.organization)
            lines.add("Identifier", config.identifier)
            lines.add("UUID", config.uuid)
            lines.add("Payloads", list: config.payloadTypes)
            lines.add("Signer", config.signer.map(describe))
            lines.add("URL", config.url)
            lines.add("Attributes", list: config.deviceAttributes ?? [])
            lines.add("Challenge", config.hasChallenge.map { $0 ? "yes" : "no" })
        case let .enrollmentReply(reply):
            lines.add("UDID", reply.udid)
            lines.add("Product", [reply.product, reply.family.map { "(\($0))" }].compactMap { $0 }.joined(separator: " "))
            lines.add("OS build", reply.version)
            lines.add("Serial", reply.serial)
            lines.add("Name", reply.deviceName)
            lines.add("IMEI", reply.imei ?? "none (no cellular modem)")
            lines.add("Challenge", reply.challenge)
            lines.add("Signer", reply.signer.map(describe) ?? "not named by the envelope")
        case let .deviceList(list):
            heading += " (\(list.format))"
            lines.add("Devices", "\(list.count)")
            lines.add("Families", list.families.keys.sorted().map { "\($0) \(list.families[$0] ?? 0)" }.joined(separator: ", ")
                + (list.assumedIPhones > 0 ? " (\(list.assumedIPhones) counted as iPhone: their names name no family)" : ""))
        case let .plist(plist):
            heading += " (\(plist.format))"
            extra.append(plist.xml.hasSuffix("\n") ? String(plist.xml.dropLast()) : plist.xml)
        case let .png(image):
            lines.add("Size", "\(image.width) × \(image.height)")
            lines.add("Form", image.cgbi ? "CgBI (Apple-crushed; browsers cannot show it)" : "standard PNG")
        }
        return style.bold("\(inspection.path): \(heading)") + "\n" + lines.text(extra: extra)
    }

    static func addProfile(_ profile: ProfileSummary, to lines: inout Lines) {
        lines.add("Name", profile.name)
        lines.add("UUID", profile.uuid)
        lines.add("App ID", profile.appId.map { $0 + (profile.appIdName.map { " (\($0))" } ?? "") })
        lines.add("Team", profile.team + (profile.teamName.map { " (\($0))" } ?? ""))
        lines.add("Created", profile.created)
        lines.add("Expires", profile.expires + (profile.expired ? " (expired)" : ""))
        lines.add("Devices", profile.provisionsAllDevices ? "all (enterprise)" : "\(profile.devices)")
        lines.add("Certificates", list: profile.certificates.map(describe))
        lines.add("Entitlements", list: profile.entitlements.keys.sorted(), limit: 20)
    }

    static func addBundle(_ bundle: BundleSummary, to lines: inout Lines, extra: inout [String]) {
        lines.add("Bundle ID", bundle.bundleId)
        lines.add("Name", bundle.name)
        lines.add("Version", [bundle.version, bundle.build.map { "(\($0))" }].compactMap { $0 }.joined(separator: " "))
        lines.add("Minimum OS", bundle.minimumOS)
        lines.add("Profile", bundle.profile.map { "\($0.name) (\($0.type), \($0.uuid)), expires \($0.expires)\($0.expired ? " (expired)" : ""), \($0.devices) devices" } ?? "none embedded")
        lines.add("Icon", bundle.icon ? "yes" : "no")
        lines.add("SHA-256", bundle.sha256)
        lines.add("Extensions", list: bundle.extensions.map { "\($0.bundleId ?? $0.path) (\($0.kind))" })
        for executable in bundle.executables {
            let signed = executable.entitlements.map { "\($0.count) entitlements" } ?? "no entitlements"
            lines.add(executable.arch, "\(executable.uuid ?? "no UUID")  \(executable.path) (\(executable.kind), \(signed))")
        }
        for dsym in bundle.dsyms { lines.add("dSYM " + dsym.arch, "\(dsym.uuid ?? "no UUID")  \(dsym.path ?? "")") }
        for problem in bundle.problems { extra.append("  problem: \(problem)") }
        if let signature = bundle.signature { addSignature(signature, to: &lines, extra: &extra) }
    }

    /// The signature's structure, one line per CodeDirectory, and what iOS would refuse.
    static func addSignature(_ signature: CodeSignatureSummary, to lines: inout Lines, extra: inout [String]) {
        lines.add("Signature", signature.valid ? "valid (page hashes, sealed files and blobs, CMS signature)" : "iOS would refuse it")
        for executable in signature.executables {
            for slice in executable.slices {
                let directories = slice.codeDirectories.map { "\($0.hashType) \($0.version) cdhash \($0.cdHash.prefix(12))…" }.joined(separator: ", ")
                let blobs = [slice.requirements ? "requirements" : nil, slice.entitlements ? "entitlements" : nil, slice.derEntitlements ? "DER entitlements" : nil]
                    .compactMap { $0 }.joined(separator: ", ")
                lines.add("CodeDirectory " + slice.architecture, "\(executable.path): \(directories)\(blobs.isEmpty ? "" : "; \(blobs)")")
                if let signer = slice.signer { lines.add("Signer " + slice.architecture, signer) }
            }
        }
        for problem in signature.problems { extra.append("  signature: \(problem.message)") }
    }

    static func addCrash(_ report: CrashReportSummary, to lines: inout Lines) {
        lines.add("Format", report.format + (report.bugType.map { ", bug_type \($0)" } ?? ""))
        lines.add("Process", report.process)
        lines.add("Bundle ID", report.bundleId)
        lines.add("Version", [report.version, report.build.map { "(\($0))" }].compactMap { $0 }.joined(separator: " "))
        lines.add("OS", report.os)
        lines.add("Hardware", report.hardwareModel)
        lines.add("Incident", report.incident)
        lines.add("Date", report.date)
        if let exception = report.exception {
            lines.add("Exception", [exception.type, exception.signal.map { "(\($0))" }, exception.subtype].compactMap { $0 }.joined(separator: " "))
            lines.add("Note", exception.note)
        }
        lines.add("Termination", report.terminationReason)
        addThread(report.crashedThread, to: &lines)
        lines.add("Threads", "\(report.threads)")
        addImages(report.images, to: &lines)
    }

    static func addThread(_ thread: ThreadSummary?, to lines: inout Lines) {
        guard let thread else { return }
        let frames = thread.frames.prefix(8).map { frame in
            "\(frame.number)  \(frame.image ?? "???")  \(frame.address)" + (frame.symbol.map { "  \($0)" } ?? "")
        }
        lines.add("Crashed thread", "\(thread.number)" + (thread.name.map { " \($0)" } ?? "") + (thread.queue.map { " (\($0))" } ?? "")
            + (frames.isEmpty ? "" : "\n" + frames.joined(separator: "\n")))
    }

    static func addImages(_ images: [ImageSummary], to lines: inout Lines) {
        lines.add("Images", list: images.map { "\($0.name) \($0.arch ?? "") \($0.uuid ?? "no UUID")".replacingDoubleSpaces }, limit: 6)
    }

    static func describe(_ certificate: CertificateSummary) -> String {
        "\(certificate.commonName ?? certificate.subject), expires \(certificate.expires)\(certificate.expired ? " (expired)" : "")"
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    var replacingDoubleSpaces: String {
        split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}
