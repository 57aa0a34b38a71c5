#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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

    /// How many hex digits addresses are printed with: 16 for 64-bit processes, 8 for 32-bit ones.
    var addressDigits: Int {
        if let code = report.codeType { return code.containsBytes("64") ? 16 : 8 }
        return report.images.contains { $0.loadAddress > UInt64(UInt32.max) } ? 16 : 8
    }

    // Padding strings, so rendering a frame does not build them character by character.
    private static let spaces: [String] = (0 ... 64).map { String(repeating: " ", count: $0) }
    private static let zeros: [String] = (0 ... 16).map { String(repeating: "0", count: $0) }

    func frameLines(_ frame: Frame, digits: Int) -> [String] {
        let number = String(frame.frame.number)
        let imageName = frame.image?.name ?? frame.frame.imageName ?? "???"
        let hex = String(frame.frame.address, radix: 16)
        var head = number
        head.reserveCapacity(64 + imageName.utf8.count)
        head += Self.spaces[Swift.max(1, 4 - number.utf8.count)]
        head += imageName
        head += Self.spaces[Swift.min(64, Swift.max(1, 36 - imageName.count))]
        head += "\t0x"
        head += Self.zeros[Swift.min(16, Swift.max(0, digits - hex.utf8.count))]
        head += hex
        head += " "
        guard !frame.locations.isEmpty else {
            guard let image = frame.image, let offset = frame.imageOffset else { return [head + "0x0 + 0"] }
            return [head + "0x" + String(image.loadAddress, radix: 16) + " + \(offset)"]
        }
        return frame.locations.map { location in
            var text = location.function ?? "???"
            text += " (in \(imageName))"
            if let file = location.file, location.line > 0 {
                text += " (\(Self.lastPathComponent(file)):\(location.line))"
            } else if let offset = location.symbolOffset {
                text += " + \(offset)"
            }
            if location.inlined { text += " [inlined]" }
            return head + text
        }
    }

    static func lastPathComponent(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    private func renderEditing(_ text: String) -> String {
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(Substring($0)) }
        var replacements: [Int: [String]] = [:]
        let digits = addressDigits
        var removed = Set<Int>()
        for frame in threads.flatMap(\.frames) {
            if let line = frame.frame.textLine { replacements[line] = frameLines(frame, digits: digits) }
        }
        if let backtrace = lastExceptionBacktrace, let first = backtrace.first?.frame.textLine,
           first < lines.count, lines[first].drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("(") {
            // The compact "(0x… 0x…)" form becomes numbered frames, as symbolicatecrash writes it.
            var end = first
            while end < lines.count - 1, !lines[end].utf8.contains(UInt8(ascii: ")")) {
                end += 1
                removed.insert(end)
            }
            replacements[first] = backtrace.flatMap { frameLines($0, digits: digits) }
        } else {
            for frame in lastExceptionBacktrace ?? [] {
                if let line = frame.frame.textLine { replacements[line] = frameLines(frame, digits: digits) }
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
        let digits = addressDigits
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
            out += backtrace.flatMap { frameLines($0, digits: digits) }
            out.append("")
        }
        for thread in threads {
            if let name = thread.name ?? thread.queue.map({ "Dispatch queue: \($0)" }) {
                out.append("Thread \(thread.number) name:   \(name)")
            }
            out.append("Thread \(thread.number)\(thread.crashed ? " Crashed" : ""):")
            out += thread.frames.flatMap { frameLines($0, digits: digits) }
            out.append("")
        }
        out.append("")
        out.append("Binary Images:")
        for image in report.images {
            let start = "0x" + String(image.loadAddress, radix: 16)
            let end = image.endAddress.map { "0x" + String($0, radix: 16) } ?? "???"
            let uuid = image.uuid.map { "<" + $0.uuidString.filter { $0 != "-" }.lowercased() + ">" } ?? "<???>"
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
