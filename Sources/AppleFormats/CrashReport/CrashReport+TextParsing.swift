extension CrashReport {
    /// Parses the text layout of `.crash` files (report versions 104 to 106, and the text body of
    /// iOS 14 `.ips` files). Unknown lines are ignored, so partial or edited reports still parse.
    static func parseText(_ bytes: UnsafeBufferPointer<UInt8>, format: Format, maxFrames: Int = maxTextFrames) throws(CrashReportError) -> CrashReport {
        var report = CrashReport(format: format)
        report.text = String(decoding: bytes, as: UTF8.self)
        var parser = TextParser(lines: TextParser.lines(of: bytes))
        parser.maxFrames = maxFrames
        parser.run(into: &report)
        guard parser.frameCount <= maxFrames else {
            throw CrashReportError.malformed("it has more than \(maxFrames) frames, far more than any real report")
        }
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
                // Fields are read one by one: a whole frame taken out would be copied.
                let address = frames[i].address
                if let index = images.firstIndex(where: { $0.contains(address) }) {
                    frames[i].imageIndex = index
                } else if let name = frames[i].imageName, let index = images.firstIndex(where: { $0.name == name || $0.bundleIdentifier == name }) {
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
    let lines: [TextSlice]
    var index = 0
    // Image names repeat on every frame; one string per distinct name is enough.
    var names: [String] = []
    /// Frames read so far; past `maxFrames` no more are kept (the report is refused).
    var frameCount = 0
    var maxFrames = CrashReport.maxTextFrames
    /// The bytes of each of `names`.
    var nameBytes: [[UInt8]] = []
    /// The position in `names` of the name returned last.
    var lastName = 0

    static let architectures: [StaticString] = ["arm64", "arm64e", "armv7", "armv7s", "armv7k", "armv6", "arm64_32", "arm",
                                                "x86_64", "x86_64h", "i386", "ppc"]

    static func isArchitecture(_ text: TextSlice) -> Bool { architectures.contains { text.equals($0) } }

    /// Splits `bytes` into lines on "\n", dropping a "\r" before it and keeping empty lines.
    static func lines(of bytes: UnsafeBufferPointer<UInt8>) -> [TextSlice] {
        var result: [TextSlice] = []
        result.reserveCapacity(bytes.count / 48)
        let whole = TextSlice(bytes, 0, bytes.count)
        var start = 0
        while let newline = whole.suffix(from: start).firstIndex(of: 0x0a) {
            result.append(TextSlice(bytes, start, newline > start && bytes[newline - 1] == 0x0d ? newline - 1 : newline))
            start = newline + 1
        }
        result.append(TextSlice(bytes, start, bytes.count > start && bytes[bytes.count - 1] == 0x0d ? bytes.count - 1 : bytes.count))
        return result
    }

    /// A string with the bytes of `text`, shared with earlier equal ones.
    mutating func interned(_ text: TextSlice) -> String {
        // Frames of one image follow each other: the last name is compared first. Names are
        // compared as the bytes kept beside them, which costs no string access.
        if lastName < names.count, Self.equal(nameBytes[lastName], text) { return names[lastName] }
        for position in names.indices where Self.equal(nameBytes[position], text) {
            lastName = position
            return names[position]
        }
        let name = text.string
        if names.count < 64 {
            names.append(name)
            nameBytes.append(Array(UnsafeBufferPointer(rebasing: text.base[text.start ..< text.end])))
            lastName = names.count - 1
        }
        return name
    }

    /// Whether `bytes` are exactly those of `text`.
    static func equal(_ bytes: [UInt8], _ text: TextSlice) -> Bool {
        guard bytes.count == text.count else { return false }
        return bytes.elementsEqual(UnsafeBufferPointer(rebasing: text.base[text.start ..< text.end]))
    }

    mutating func run(into report: inout CrashReport) {
        var threadNames: [Int: String] = [:]
        while index < lines.count {
            let trimmed = lines[index].trimmed
            index += 1
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("Binary Images"), trimmed.last == UInt8(ascii: ":") {
                report.images += readImages()
                continue
            }
            if trimmed.equals("Last Exception Backtrace:") {
                report.lastExceptionBacktrace = readBacktrace()
                continue
            }
            if trimmed.hasPrefix("Application Specific Backtrace"), trimmed.last == UInt8(ascii: ":") {
                let frames = readBacktrace()
                if report.lastExceptionBacktrace == nil { report.lastExceptionBacktrace = frames }
                continue
            }
            if trimmed.equals("Application Specific Information:") {
                var collected: [String] = []
                while index < lines.count, !lines[index].isBlankLine {
                    collected.append(lines[index].string)
                    index += 1
                }
                report.applicationSpecificInformation = collected.joined(separator: "\n")
                continue
            }
            if trimmed.hasPrefix("Thread "), let header = Self.threadHeader(trimmed) {
                switch header {
                case let .name(number, name):
                    threadNames[number] = name
                case let .start(number, crashed, queue):
                    var thread = CrashReport.Thread(number: number, crashed: crashed)
                    let name = threadNames[number] ?? queue
                    if let name, name.hasPrefix("Dispatch queue:") {
                        thread.queue = String(name.dropFirst("Dispatch queue:".count).drop { $0 == " " || $0 == "\t" })
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
            if let colon = trimmed.firstIndex(of: UInt8(ascii: ":")) {
                Self.apply(key: trimmed.prefix(upTo: colon).trimmed, value: trimmed.suffix(from: colon + 1).trimmed, to: &report)
            }
        }
    }

    /// The header fields the model keeps, by their name in the text.
    enum HeaderKey: CaseIterable {
        case incident, hardware, process, path, identifier, version, codeType, osVersion, date, reportVersion
        case exceptionType, exceptionCodes, exceptionSubtype, exceptionNote, terminationReason, crashedThread

        /// The names a report may give the field.
        var names: [StaticString] {
            switch self {
            case .incident: ["Incident Identifier"]
            case .hardware: ["Hardware Model"]
            case .process: ["Process"]
            case .path: ["Path"]
            case .identifier: ["Identifier"]
            case .version: ["Version"]
            case .codeType: ["Code Type"]
            case .osVersion: ["OS Version"]
            case .date: ["Date/Time"]
            case .reportVersion: ["Report Version"]
            case .exceptionType: ["Exception Type"]
            case .exceptionCodes: ["Exception Codes"]
            case .exceptionSubtype: ["Exception Subtype"]
            case .exceptionNote: ["Exception Note", "Exception Reason", "Exception Message"]
            case .terminationReason: ["Termination Reason"]
            case .crashedThread: ["Triggered by Thread", "Crashed Thread"]
            }
        }

        /// Every name with its field, looked up by bytes (every line of a report's header is).
        static let table: [(StaticString, HeaderKey)] = allCases.flatMap { key in key.names.map { ($0, key) } }

        /// The field named `name`, if the model keeps it.
        static func named(_ name: TextSlice) -> HeaderKey? {
            table.first { name.equals($0.0) }?.1
        }
    }

    static func apply(key name: TextSlice, value: TextSlice, to report: inout CrashReport) {
        guard !value.isEmpty, let key = HeaderKey.named(name) else { return }
        switch key {
        case .incident: report.incidentIdentifier = value.string
        case .hardware: report.hardwareModel = value.string
        case .process:
            let (name, pid) = headAndGroup(value, open: UInt8(ascii: "["), close: UInt8(ascii: "]"))
            report.processName = name.string
            report.processID = pid?.int
        case .path: report.processPath = value.string
        case .identifier: report.bundleIdentifier = value.string
        case .version:
            // "1.2 (42)": marketing version, then the build in parentheses.
            let (version, build) = headAndGroup(value, open: UInt8(ascii: "("), close: UInt8(ascii: ")"))
            report.version = version.string
            report.build = build?.string
        case .codeType: report.codeType = value.string
        case .osVersion: report.osVersion = value.string
        case .date: report.date = value.string
        case .reportVersion: report.reportVersion = value.string
        case .exceptionType:
            let (type, signal) = headAndGroup(value, open: UInt8(ascii: "("), close: UInt8(ascii: ")"))
            report.exception = (report.exception ?? .init()).with {
                $0.type = type.string
                $0.signal = signal?.string
            }
        case .exceptionCodes: report.exception = (report.exception ?? .init()).with { $0.codes = value.string }
        case .exceptionSubtype: report.exception = (report.exception ?? .init()).with { $0.subtype = value.string }
        case .exceptionNote: report.exception = (report.exception ?? .init()).with { $0.note = value.string }
        case .terminationReason: report.terminationReason = value.string
        case .crashedThread:
            if let number = value.leadingDigits.int { report.crashedThread = number }
        }
    }

    /// "text (inner)" as its head and the bracketed group, or the whole value and nil.
    static func headAndGroup(_ value: TextSlice, open: UInt8, close: UInt8) -> (TextSlice, TextSlice?) {
        trailingGroup(value, open: open, close: close).map { ($0.0, $0.1) } ?? (value, nil)
    }

    /// "text (inner)" split into its parts, when the value ends with a bracketed group.
    static func trailingGroup(_ value: TextSlice, open: UInt8, close: UInt8) -> (TextSlice, TextSlice)? {
        guard value.last == close, let start = value.lastIndex(of: open) else { return nil }
        return (value.prefix(upTo: start).trimmed, value.slice(start + 1, value.end - 1))
    }

    enum ThreadHeader {
        case name(Int, String)
        case start(Int, crashed: Bool, queue: String?)
        case state
    }

    /// "Thread 3 name:  …", "Thread 0 Crashed:", "Thread 0 Crashed:: Dispatch queue: …", "Thread 1:",
    /// "Thread 0 crashed with ARM Thread State (64-bit):".
    static func threadHeader(_ line: TextSlice) -> ThreadHeader? {
        let rest = line.dropping("Thread ")
        let digits = rest.leadingDigits
        guard digits.count < 9, let number = digits.int else { return nil }
        let tail = rest.suffix(from: digits.end)
        if tail.hasPrefix(" name:") {
            return .name(number, tail.dropping(" name:").trimmed.string)
        }
        if tail.hasPrefix(" crashed with") || tail.range(of: "Thread State") != nil { return .state }
        var crashed = false
        var remainder = tail
        if remainder.hasPrefix(" Crashed") {
            crashed = true
            remainder = remainder.dropping(" Crashed")
        }
        guard remainder.first == UInt8(ascii: ":") else { return nil }
        var colons = remainder.start
        while colons < remainder.end, remainder.base[colons] == UInt8(ascii: ":") { colons += 1 }
        let queue = remainder.suffix(from: colons).trimmed
        return .start(number, crashed: crashed, queue: queue.isEmpty ? nil : queue.string)
    }

    /// Register dumps are indented; old macOS reports follow them with "Binary Images:" without a blank line.
    mutating func skipRegisters() {
        while index < lines.count, let first = lines[index].first, first == 0x20 || first == 0x09 { index += 1 }
    }
}

extension CrashReport.Exception {
    func with(_ change: (inout CrashReport.Exception) -> Void) -> CrashReport.Exception {
        var copy = self
        change(&copy)
        return copy
    }
}
