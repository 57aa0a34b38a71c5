import Foundation
import AppleFormats

extension SymbolicatedReport {
    /// The report in Apple's text layout, as Xcode shows a symbolicated crash: each frame reads
    /// `N   Image   0xADDRESS symbol (in Image) (File.swift:LINE)`, and inlined functions get
    /// their own line with the same number and address, marked `[inlined]`.
    ///
    /// A text report keeps every line it had, with frame lines replaced; a JSON `.ips` report is
    /// laid out as the text report Xcode translates it to.
    public func renderText() -> String {
        if let text = report.text, report.format != .ips {
            return renderEditing(text)
        }
        return renderFromModel()
    }

    private var uses64BitAddresses: Bool {
        if let code = report.codeType { return code.contains("64") }
        return report.images.contains { $0.loadAddress > UInt64(UInt32.max) }
    }

    func frameLines(_ frame: Frame) -> [String] {
        let number = String(frame.frame.number)
        let prefix = number + String(repeating: " ", count: Swift.max(1, 4 - number.count))
        let imageName = frame.image?.name ?? frame.frame.imageName ?? "???"
        let paddedImage = imageName + String(repeating: " ", count: Swift.max(1, 36 - imageName.count))
        let digits = uses64BitAddresses ? 16 : 8
        let hex = String(frame.frame.address, radix: 16)
        let address = "0x" + String(repeating: "0", count: Swift.max(0, digits - hex.count)) + hex
        let head = prefix + paddedImage + "\t" + address + " "
        guard !frame.locations.isEmpty else {
            guard let image = frame.image, let offset = frame.imageOffset else { return [head + "0x0 + 0"] }
            return [head + "0x" + String(image.loadAddress, radix: 16) + " + \(offset)"]
        }
        return frame.locations.map { location in
            var text = location.function ?? "???"
            text += " (in \(imageName))"
            if let file = location.file, location.line > 0 {
                text += " (\((file as NSString).lastPathComponent):\(location.line))"
            } else if let offset = location.symbolOffset {
                text += " + \(offset)"
            }
            if location.inlined { text += " [inlined]" }
            return head + text
        }
    }

    private func renderEditing(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var replacements: [Int: [String]] = [:]
        var removed = Set<Int>()
        for frame in threads.flatMap(\.frames) {
            if let line = frame.frame.textLine { replacements[line] = frameLines(frame) }
        }
        if let backtrace = lastExceptionBacktrace, let first = backtrace.first?.frame.textLine,
           first < lines.count, lines[first].trimmingCharacters(in: .whitespaces).hasPrefix("(") {
            // The compact "(0x… 0x…)" form becomes numbered frames, as symbolicatecrash writes it.
            var end = first
            while end < lines.count - 1, !lines[end].contains(")") {
                end += 1
                removed.insert(end)
            }
            replacements[first] = backtrace.flatMap(frameLines)
        } else {
            for frame in lastExceptionBacktrace ?? [] {
                if let line = frame.frame.textLine { replacements[line] = frameLines(frame) }
            }
        }
        var output: [String] = []
        output.reserveCapacity(lines.count + 16)
        for (number, line) in lines.enumerated() where !removed.contains(number) {
            if let replacement = replacements[number] { output += replacement } else { output.append(line) }
        }
        lines = output
        return lines.joined(separator: "\n")
    }

    private func renderFromModel() -> String {
        var out: [String] = []
        func field(_ key: String, _ value: String?) {
            guard let value else { return }
            out.append(key + ":" + String(repeating: " ", count: Swift.max(1, 21 - key.count - 1)) + value)
        }
        field("Incident Identifier", report.incidentIdentifier)
        field("Hardware Model", report.hardwareModel)
        field("Process", report.processName.map { name in report.processID.map { "\(name) [\($0)]" } ?? name })
        field("Path", report.processPath)
        field("Identifier", report.bundleIdentifier)
        field("Version", report.version.map { version in report.build.map { "\(version) (\($0))" } ?? version })
        field("Code Type", report.codeType)
        out.append("")
        field("Date/Time", report.date)
        field("OS Version", report.osVersion)
        field("Report Version", report.reportVersion ?? "104")
        out.append("")
        if let exception = report.exception {
            if let type = exception.type {
                out.append("Exception Type:  " + type + (exception.signal.map { " (\($0))" } ?? ""))
            }
            if let subtype = exception.subtype { out.append("Exception Subtype: " + subtype) }
            if let codes = exception.codes { out.append("Exception Codes: " + codes) }
            if let note = exception.note { out.append("Exception Note:  " + note) }
        }
        if let termination = report.terminationReason { out.append("Termination Reason: " + termination) }
        out.append("")
        if let crashed = report.crashedThread ?? threads.first(where: \.crashed)?.number {
            out.append("Triggered by Thread:  \(crashed)")
            out.append("")
        }
        if let info = report.applicationSpecificInformation {
            out.append("Application Specific Information:")
            out.append(info)
            out.append("")
        }
        if let backtrace = lastExceptionBacktrace {
            out.append("Last Exception Backtrace:")
            out += backtrace.flatMap(frameLines)
            out.append("")
        }
        for thread in threads {
            if let name = thread.name ?? thread.queue.map({ "Dispatch queue: \($0)" }) {
                out.append("Thread \(thread.number) name:   \(name)")
            }
            out.append("Thread \(thread.number)\(thread.crashed ? " Crashed" : ""):")
            out += thread.frames.flatMap(frameLines)
            out.append("")
        }
        out.append("")
        out.append("Binary Images:")
        for image in report.images {
            let start = "0x" + String(image.loadAddress, radix: 16)
            let end = image.endAddress.map { "0x" + String($0, radix: 16) } ?? "???"
            let uuid = image.uuid.map { "<" + $0.uuidString.replacingOccurrences(of: "-", with: "").lowercased() + ">" } ?? "<???>"
            let padStart = String(repeating: " ", count: Swift.max(0, 18 - start.count))
            let padEnd = String(repeating: " ", count: Swift.max(0, 18 - end.count))
            out.append("\(padStart)\(start) - \(padEnd)\(end) \(image.name) \(image.architecture ?? "")  \(uuid) \(image.path ?? "")")
        }
        out.append("")
        out.append("EOF")
        out.append("")
        return out.joined(separator: "\n")
    }
}
