import AppleFormats

extension SymbolicatedReport {
    /// The report in Apple's text layout, as Xcode shows a symbolicated crash: each frame reads
    /// `N   Image   0xADDRESS symbol (in Image) (File.swift:LINE)`, and inlined functions get
    /// their own line with the same number and address, marked `[inlined]`.
    ///
    /// A text report keeps every line it had, with frame lines replaced; a JSON `.ips` report is
    /// laid out as the text report Xcode translates it to.
    public func renderText() -> String {
        String(decoding: renderTextBytes(), as: UTF8.self)
    }

    /// `renderText()` as UTF-8 bytes, ready to write.
    public func renderTextBytes() -> [UInt8] {
        var out = TextOutput()
        if let text = report.text, report.format != .ips {
            renderEditing(text, into: &out)
        } else {
            renderFromModel(into: &out)
        }
        return out.bytes
    }

    /// How many hex digits addresses are printed with: 16 for 64-bit processes, 8 for 32-bit ones.
    var addressDigits: Int {
        if let code = report.codeType { return code.containsBytes("64") ? 16 : 8 }
        return report.images.contains { $0.loadAddress > UInt64(UInt32.max) } ? 16 : 8
    }

    /// The lines of one frame: one per location (inlined functions first), or the image and
    /// offset when nothing is known. Each line ends with "\n".
    func appendFrameLines(_ frame: Frame, digits: Int, to out: inout TextOutput) {
        let imageName = frame.image?.name ?? frame.frame.imageName ?? "???"
        let head = out.bytes.count
        out.append(frame.frame.number)
        out.pad(to: head + 4, minimum: 1)
        out.append(imageName)
        out.appendSpaces(Swift.min(64, Swift.max(1, 36 - imageName.count)))
        out.append("\t0x")
        out.appendHex(frame.frame.address, digits: digits)
        out.append(" ")
        let prefix = Array(out.bytes[head...])
        guard !frame.locations.isEmpty else {
            if let image = frame.image, let offset = frame.imageOffset {
                out.append("0x")
                out.appendHex(image.loadAddress, digits: 0)
                out.append(" + ")
                out.append(offset)
            } else {
                out.append("0x0 + 0")
            }
            out.append("\n")
            return
        }
        for (position, location) in frame.locations.enumerated() {
            if position > 0 { out.bytes += prefix }
            out.append(location.function ?? "???")
            out.append(" (in ")
            out.append(imageName)
            out.append(")")
            if let file = location.file, location.line > 0 {
                out.append(" (")
                out.appendLastPathComponent(file)
                out.append(":")
                out.append(location.line)
                out.append(")")
            } else if let offset = location.symbolOffset {
                out.append(" + ")
                out.append(offset)
            }
            if location.inlined { out.append(" [inlined]") }
            out.append("\n")
        }
    }

    /// Copies the original text, replacing each frame's line with its symbolicated lines.
    private func renderEditing(_ text: String, into out: inout TextOutput) {
        var replacements: [Int: Frame] = [:]
        var backtraceLine: Int?
        var backtraceEnd = -1
        for thread in threads {
            for frame in thread.frames { if let line = frame.frame.textLine { replacements[line] = frame } }
        }
        let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if let backtrace = lastExceptionBacktrace, let first = backtrace.first?.frame.textLine, first < lines.count,
           lines[first].drop(while: { $0 == 0x20 || $0 == 0x09 }).first == UInt8(ascii: "(") {
            // The compact "(0x… 0x…)" form becomes numbered frames, as symbolicatecrash writes it.
            backtraceLine = first
            backtraceEnd = first
            while backtraceEnd < lines.count - 1, !lines[backtraceEnd].contains(UInt8(ascii: ")")) { backtraceEnd += 1 }
        } else {
            for frame in lastExceptionBacktrace ?? [] { if let line = frame.frame.textLine { replacements[line] = frame } }
        }
        let digits = addressDigits
        out.bytes.reserveCapacity(text.utf8.count + replacements.count * 48)
        for (number, line) in lines.enumerated() {
            if number == backtraceLine {
                for frame in lastExceptionBacktrace ?? [] { appendFrameLines(frame, digits: digits, to: &out) }
            } else if let backtraceLine, number > backtraceLine, number <= backtraceEnd {
                continue
            } else if let frame = replacements[number] {
                appendFrameLines(frame, digits: digits, to: &out)
            } else {
                out.bytes += line
                out.append("\n")
            }
        }
        // Lines are joined by line breaks: the last one gets none (a text ending in "\n" has an empty last line).
        if out.bytes.last == UInt8(ascii: "\n") { out.bytes.removeLast() }
    }

    private func renderFromModel(into out: inout TextOutput) {
        let digits = addressDigits
        func field(_ key: String, _ value: String?) {
            guard let value else { return }
            out.append(key)
            out.append(":")
            out.appendSpaces(Swift.max(1, 21 - key.count - 1))
            out.append(value)
            out.append("\n")
        }
        func line(_ text: String = "") {
            out.append(text)
            out.append("\n")
        }
        field("Incident Identifier", report.incidentIdentifier)
        field("Hardware Model", report.hardwareModel)
        field("Process", report.processName.map { name in report.processID.map { "\(name) [\($0)]" } ?? name })
        field("Path", report.processPath)
        field("Identifier", report.bundleIdentifier)
        field("Version", report.version.map { version in report.build.map { "\(version) (\($0))" } ?? version })
        field("Code Type", report.codeType)
        line()
        field("Date/Time", report.date)
        field("OS Version", report.osVersion)
        field("Report Version", report.reportVersion ?? "104")
        line()
        if let exception = report.exception {
            if let type = exception.type {
                line("Exception Type:  " + type + (exception.signal.map { " (\($0))" } ?? ""))
            }
            if let subtype = exception.subtype { line("Exception Subtype: " + subtype) }
            if let codes = exception.codes { line("Exception Codes: " + codes) }
            if let note = exception.note { line("Exception Note:  " + note) }
        }
        if let termination = report.terminationReason { line("Termination Reason: " + termination) }
        line()
        if let crashed = report.crashedThread ?? threads.first(where: \.crashed)?.number {
            line("Triggered by Thread:  \(crashed)")
            line()
        }
        if let info = report.applicationSpecificInformation {
            line("Application Specific Information:")
            line(info)
            line()
        }
        if let backtrace = lastExceptionBacktrace {
            line("Last Exception Backtrace:")
            for frame in backtrace { appendFrameLines(frame, digits: digits, to: &out) }
            line()
        }
        for thread in threads {
            if let name = thread.name ?? thread.queue.map({ "Dispatch queue: \($0)" }) {
                line("Thread \(thread.number) name:   \(name)")
            }
            line("Thread \(thread.number)\(thread.crashed ? " Crashed" : ""):")
            for frame in thread.frames { appendFrameLines(frame, digits: digits, to: &out) }
            line()
        }
        line()
        line("Binary Images:")
        for image in report.images {
            let start = "0x" + String(image.loadAddress, radix: 16)
            let end = image.endAddress.map { "0x" + String($0, radix: 16) } ?? "???"
            let uuid = image.uuid.map { "<" + $0.uuidString.filter { $0 != "-" }.lowercased() + ">" } ?? "<???>"
            out.appendSpaces(Swift.max(0, 18 - start.count))
            out.append(start)
            out.append(" - ")
            out.appendSpaces(Swift.max(0, 18 - end.count))
            line("\(end) \(image.name) \(image.architecture ?? "")  \(uuid) \(image.path ?? "")")
        }
        line()
        line("EOF")
    }
}

/// A growing UTF-8 buffer with the few formatting steps report rendering needs, so that frame
/// lines are written straight into the output instead of being built as strings and joined.
struct TextOutput {
    var bytes: [UInt8] = []

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ number: Int) {
        guard number >= 0 else { return append(String(number)) }
        append(UInt64(number))
    }

    mutating func append(_ number: UInt64) {
        var digits: [UInt8] = []
        var value = number
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(value % 10))
            value /= 10
        } while value > 0
        bytes.append(contentsOf: digits.reversed())
    }

    /// Lowercase hexadecimal, zero-padded to `digits` (0 for no padding).
    mutating func appendHex(_ number: UInt64, digits: Int) {
        var width = 1
        while width < 16, number >> (4 * UInt64(width)) != 0 { width += 1 }
        if digits > width { bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: Swift.min(16, digits) - width)) }
        for position in stride(from: width - 1, through: 0, by: -1) {
            let nibble = UInt8(truncatingIfNeeded: number >> (4 * UInt64(position))) & 0xF
            bytes.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
        }
    }

    mutating func appendSpaces(_ count: Int) {
        if count > 0 { bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count)) }
    }

    /// Spaces up to byte position `column`, and at least `minimum` of them.
    mutating func pad(to column: Int, minimum: Int) {
        appendSpaces(Swift.max(minimum, column - bytes.count))
    }

    /// The part of `path` after its last "/".
    mutating func appendLastPathComponent(_ path: String) {
        var path = path
        path.withUTF8 { utf8 in
            let start = (utf8.lastIndex(of: UInt8(ascii: "/")) ?? -1) + 1
            bytes.append(contentsOf: utf8[start...])
        }
    }
}
