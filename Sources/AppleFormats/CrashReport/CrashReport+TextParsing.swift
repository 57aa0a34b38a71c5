#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension CrashReport {
    /// Parses the text layout of `.crash` files (report versions 104 to 106, and the text body of
    /// iOS 14 `.ips` files). Unknown lines are ignored, so partial or edited reports still parse.
    static func parseText(_ text: String, format: Format) throws(CrashReportError) -> CrashReport {
        var report = CrashReport(format: format)
        report.text = text
        var parser = TextParser(lines: Substring.lines(of: text))
        parser.run(into: &report)
        guard !report.threads.isEmpty || !report.images.isEmpty || report.incidentIdentifier != nil || report.processName != nil else {
            throw CrashReportError.unrecognized("no header fields, threads or binary images were found")
        }
        report.resolveImages()
        return report
    }

    /// Links frames to images by address range (then by name) once both are known.
    mutating func resolveImages() {
        func resolve(_ frames: inout [Frame]) {
            for i in frames.indices where frames[i].imageIndex == nil {
                let frame = frames[i]
                if let index = images.firstIndex(where: { $0.contains(frame.address) }) {
                    frames[i].imageIndex = index
                } else if let name = frame.imageName, let index = images.firstIndex(where: { $0.name == name || $0.bundleIdentifier == name }) {
                    frames[i].imageIndex = index
                }
                if frames[i].imageName == nil, let index = frames[i].imageIndex { frames[i].imageName = images[index].name }
            }
        }
        for t in threads.indices { resolve(&threads[t].frames) }
        if var backtrace = lastExceptionBacktrace {
            resolve(&backtrace)
            lastExceptionBacktrace = backtrace
        }
        if let crashedThread {
            for t in threads.indices where threads[t].number == crashedThread { threads[t].crashed = true }
        }
    }
}

/// A line-oriented reader for the text layout.
struct TextParser {
    let lines: [Substring]
    var index = 0

    static let architectures: Set<Substring> = ["arm64", "arm64e", "armv7", "armv7s", "armv7k", "armv6", "arm64_32", "arm",
                                                "x86_64", "x86_64h", "i386", "ppc"]

    mutating func run(into report: inout CrashReport) {
        var names: [Int: String] = [:]
        while index < lines.count {
            let trimmed = lines[index].trimmed
            index += 1
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("Binary Images"), trimmed.hasSuffix(":") {
                report.images += readImages()
                continue
            }
            if trimmed == "Last Exception Backtrace:" {
                report.lastExceptionBacktrace = readBacktrace()
                continue
            }
            if trimmed.hasPrefix("Application Specific Backtrace"), trimmed.hasSuffix(":") {
                let frames = readBacktrace()
                if report.lastExceptionBacktrace == nil { report.lastExceptionBacktrace = frames }
                continue
            }
            if trimmed == "Application Specific Information:" {
                var collected: [String] = []
                while index < lines.count, !lines[index].isBlankLine {
                    collected.append(String(lines[index]))
                    index += 1
                }
                report.applicationSpecificInformation = collected.joined(separator: "\n")
                continue
            }
            if trimmed.hasPrefix("Thread "), let header = Self.threadHeader(trimmed) {
                switch header {
                case let .name(number, name):
                    names[number] = name
                case let .start(number, crashed, queue):
                    var thread = CrashReport.Thread(number: number, crashed: crashed)
                    let name = names[number] ?? queue
                    if let name, name.hasPrefix("Dispatch queue:") {
                        thread.queue = String(Substring(name).dropFirst("Dispatch queue:".count).trimmed)
                    } else {
                        thread.name = name
                    }
                    thread.frames = readFrames()
                    report.threads.append(thread)
                case .state:
                    skipRegisters()
                }
                continue
            }
            if let colon = trimmed.firstIndex(ofByte: UInt8(ascii: ":")) {
                let key = trimmed[..<colon].trimmed
                let value = trimmed[trimmed.utf8.index(after: colon)...].trimmed
                Self.apply(key: key, value: value, to: &report)
            }
        }
    }

    static func apply(key: Substring, value: Substring, to report: inout CrashReport) {
        guard !value.isEmpty else { return }
        switch key {
        case "Incident Identifier": report.incidentIdentifier = String(value)
        case "Hardware Model": report.hardwareModel = String(value)
        case "Process":
            if let (name, inner) = trailingGroup(value, open: UInt8(ascii: "["), close: UInt8(ascii: "]")) {
                report.processName = String(name)
                report.processID = Int(inner)
            } else {
                report.processName = String(value)
            }
        case "Path": report.processPath = String(value)
        case "Identifier": report.bundleIdentifier = String(value)
        case "Version":
            // "1.2 (42)": marketing version, then the build in parentheses.
            if let (version, build) = trailingGroup(value, open: UInt8(ascii: "("), close: UInt8(ascii: ")")) {
                report.version = String(version)
                report.build = String(build)
            } else {
                report.version = String(value)
            }
        case "Code Type": report.codeType = String(value)
        case "OS Version": report.osVersion = String(value)
        case "Date/Time": report.date = String(value)
        case "Report Version": report.reportVersion = String(value)
        case "Exception Type":
            var exception = report.exception ?? CrashReport.Exception()
            if let (type, signal) = trailingGroup(value, open: UInt8(ascii: "("), close: UInt8(ascii: ")")) {
                exception.type = String(type)
                exception.signal = String(signal)
            } else {
                exception.type = String(value)
            }
            report.exception = exception
        case "Exception Codes": report.exception = (report.exception ?? .init()).with { $0.codes = String(value) }
        case "Exception Subtype": report.exception = (report.exception ?? .init()).with { $0.subtype = String(value) }
        case "Exception Note", "Exception Reason", "Exception Message": report.exception = (report.exception ?? .init()).with { $0.note = String(value) }
        case "Termination Reason": report.terminationReason = String(value)
        case "Triggered by Thread", "Crashed Thread":
            if let number = Int(value.leadingDigits) { report.crashedThread = number }
        default: break
        }
    }

    /// "text (inner)" split into its parts, when the value ends with a bracketed group.
    static func trailingGroup(_ value: Substring, open: UInt8, close: UInt8) -> (Substring, Substring)? {
        guard value.utf8.last == close, let start = value.lastIndex(ofByte: open) else { return nil }
        let inner = value[value.utf8.index(after: start) ..< value.utf8.index(before: value.utf8.endIndex)]
        return (value[..<start].trimmed, inner)
    }

    enum ThreadHeader {
        case name(Int, String)
        case start(Int, crashed: Bool, queue: String?)
        case state
    }

    /// "Thread 3 name:  …", "Thread 0 Crashed:", "Thread 0 Crashed:: Dispatch queue: …", "Thread 1:",
    /// "Thread 0 crashed with ARM Thread State (64-bit):".
    static func threadHeader(_ line: Substring) -> ThreadHeader? {
        let rest = line.dropFirst("Thread ".count)
        let digits = rest.leadingDigits
        guard digits.utf8.count < 9, let number = Int(digits) else { return nil }
        let tail = rest[digits.endIndex...]
        if tail.hasPrefix(" name:") {
            return .name(number, String(tail.dropFirst(" name:".count).trimmed))
        }
        if tail.hasPrefix(" crashed with") || tail.range(ofASCII: "Thread State") != nil { return .state }
        var crashed = false
        var remainder = tail
        if remainder.hasPrefix(" Crashed") {
            crashed = true
            remainder = remainder.dropFirst(" Crashed".count)
        }
        guard remainder.hasPrefix(":") else { return nil }
        let queue = remainder.drop { $0 == ":" }.trimmed
        return .start(number, crashed: crashed, queue: queue.isEmpty ? nil : String(queue))
    }

    /// Register dumps are indented; old macOS reports follow them with "Binary Images:" without a blank line.
    mutating func skipRegisters() {
        while index < lines.count, let first = lines[index].utf8.first, first == 0x20 || first == 0x09 { index += 1 }
    }
}

extension CrashReport.Exception {
    func with(_ change: (inout CrashReport.Exception) -> Void) -> CrashReport.Exception {
        var copy = self
        change(&copy)
        return copy
    }
}
