import Foundation

extension CrashReport {
    /// Parses the text layout of `.crash` files (report versions 104 to 106, and the text body of
    /// iOS 14 `.ips` files). Unknown lines are ignored, so partial or edited reports still parse.
    static func parseText(_ text: String, format: Format) throws(CrashReportError) -> CrashReport {
        var report = CrashReport(format: format)
        report.text = text
        var parser = TextParser(lines: text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 })
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

    static let architectures: Set<String> = ["arm64", "arm64e", "armv7", "armv7s", "armv7k", "armv6", "arm64_32", "arm",
                                             "x86_64", "x86_64h", "i386", "ppc"]

    mutating func run(into report: inout CrashReport) {
        var names: [Int: String] = [:]
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            index += 1
            if trimmed.isEmpty { continue }
            if trimmed == "Binary Images:" || trimmed.hasPrefix("Binary Images") && trimmed.hasSuffix(":") {
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
                while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).isEmpty {
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
                        thread.queue = name.dropFirst("Dispatch queue:".count).trimmingCharacters(in: .whitespaces)
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
            if let colon = trimmed.firstIndex(of: ":") {
                let key = trimmed[..<colon].trimmingCharacters(in: .whitespaces)
                let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                Self.apply(key: key, value: value, to: &report)
            }
        }
    }

    static func apply(key: String, value: String, to report: inout CrashReport) {
        guard !value.isEmpty else { return }
        switch key {
        case "Incident Identifier": report.incidentIdentifier = value
        case "Hardware Model": report.hardwareModel = value
        case "Process":
            if value.hasSuffix("]"), let open = value.lastIndex(of: "[") {
                report.processName = value[..<open].trimmingCharacters(in: .whitespaces)
                report.processID = Int(value[value.index(after: open) ..< value.index(before: value.endIndex)])
            } else {
                report.processName = value
            }
        case "Path": report.processPath = value
        case "Identifier": report.bundleIdentifier = value
        case "Version":
            // "1.2 (42)": marketing version, then the build in parentheses.
            if value.hasSuffix(")"), let open = value.lastIndex(of: "(") {
                report.version = value[..<open].trimmingCharacters(in: .whitespaces)
                report.build = String(value[value.index(after: open) ..< value.index(before: value.endIndex)])
            } else {
                report.version = value
            }
        case "Code Type": report.codeType = value
        case "OS Version": report.osVersion = value
        case "Date/Time": report.date = value
        case "Report Version": report.reportVersion = value
        case "Exception Type":
            var exception = report.exception ?? CrashReport.Exception()
            if value.hasSuffix(")"), let open = value.lastIndex(of: "(") {
                exception.type = value[..<open].trimmingCharacters(in: .whitespaces)
                exception.signal = String(value[value.index(after: open) ..< value.index(before: value.endIndex)])
            } else {
                exception.type = value
            }
            report.exception = exception
        case "Exception Codes": report.exception = (report.exception ?? .init()).with { $0.codes = value }
        case "Exception Subtype": report.exception = (report.exception ?? .init()).with { $0.subtype = value }
        case "Exception Note", "Exception Reason", "Exception Message": report.exception = (report.exception ?? .init()).with { $0.note = value }
        case "Termination Reason": report.terminationReason = value
        case "Triggered by Thread", "Crashed Thread":
            let digits = value.prefix { $0.isNumber }
            if let number = Int(digits) { report.crashedThread = number }
        default: break
        }
    }

    enum ThreadHeader {
        case name(Int, String)
        case start(Int, crashed: Bool, queue: String?)
        case state
    }

    /// "Thread 3 name:  …", "Thread 0 Crashed:", "Thread 0 Crashed:: Dispatch queue: …", "Thread 1:",
    /// "Thread 0 crashed with ARM Thread State (64-bit):".
    static func threadHeader(_ line: String) -> ThreadHeader? {
        let rest = line.dropFirst("Thread ".count)
        let digits = rest.prefix { $0.isNumber }
        guard let number = Int(digits) else { return nil }
        let tail = rest.dropFirst(digits.count)
        if tail.hasPrefix(" name:") {
            return .name(number, tail.dropFirst(" name:".count).trimmingCharacters(in: .whitespaces))
        }
        if tail.hasPrefix(" crashed with") || tail.contains("Thread State") { return .state }
        var crashed = false
        var remainder = tail
        if remainder.hasPrefix(" Crashed") {
            crashed = true
            remainder = remainder.dropFirst(" Crashed".count)
        }
        guard remainder.hasPrefix(":") else { return nil }
        let queue = remainder.drop { $0 == ":" }.trimmingCharacters(in: .whitespaces)
        return .start(number, crashed: crashed, queue: queue.isEmpty ? nil : queue)
    }

    /// Register dumps are indented; old macOS reports follow them with "Binary Images:" without a blank line.
    mutating func skipRegisters() {
        while index < lines.count, let first = lines[index].first, first == " " || first == "\t" { index += 1 }
    }

    mutating func readFrames() -> [CrashReport.Frame] {
        var frames: [CrashReport.Frame] = []
        while index < lines.count, var frame = Self.frame(lines[index]) {
            frame.textLine = index
            frames.append(frame)
            index += 1
        }
        return frames
    }

    /// The line form (numbered frames) or the compact form "(0x1 0x2 …)", which may wrap.
    mutating func readBacktrace() -> [CrashReport.Frame] {
        while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces).isEmpty { index += 1 }
        guard index < lines.count else { return [] }
        let first = lines[index].trimmingCharacters(in: .whitespaces)
        guard first.hasPrefix("(") else { return readFrames() }
        var text = ""
        let start = index
        while index < lines.count {
            text += " " + lines[index]
            index += 1
            if text.contains(")") { break }
        }
        let inner = text.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }
        var frames: [CrashReport.Frame] = []
        for token in inner.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
            guard let address = Self.hex(token) else { continue }
            var frame = CrashReport.Frame(number: frames.count, address: address)
            frame.textLine = start
            frames.append(frame)
        }
        return frames
    }

    static func hex(_ token: Substring) -> UInt64? {
        guard token.hasPrefix("0x") || token.hasPrefix("0X") else { return nil }
        return UInt64(token.dropFirst(2), radix: 16)
    }

    /// One frame line: `N  Image Name  0xADDRESS  (0xBASE + OFFSET | symbol + OFFSET [(file:line)])`.
    static func frame(_ line: Substring) -> CrashReport.Frame? {
        let body = line.drop { $0 == " " || $0 == "\t" }
        let digits = body.prefix { $0.isNumber }
        guard let number = Int(digits), digits.count < 8 else { return nil }
        let rest = body.dropFirst(digits.count)
        guard let first = rest.first, first == " " || first == "\t" else { return nil }
        // The address is the first whitespace-delimited hexadecimal token after the image name.
        var cursor = rest.startIndex
        var found: (Range<Substring.Index>, UInt64)?
        while cursor < rest.endIndex {
            guard let start = rest[cursor...].range(of: "0x")?.lowerBound else { break }
            let before = start > rest.startIndex ? rest[rest.index(before: start)] : " "
            let token = rest[start...].prefix { !$0.isWhitespace }
            if before == " " || before == "\t", let value = hex(token) {
                found = (start ..< token.endIndex, value)
                break
            }
            cursor = rest.index(after: start)
        }
        guard let (range, address) = found else { return nil }
        var frame = CrashReport.Frame(number: number, address: address)
        let name = rest[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
        frame.imageName = name.isEmpty ? nil : name
        var tail = rest[range.upperBound...].trimmingCharacters(in: .whitespaces)[...]
        if tail.hasSuffix("[inlined]") { tail = tail.dropLast("[inlined]".count).trimmingCharacters(in: .whitespaces)[...] }
        if tail.hasPrefix("0x") {
            // "0xBASE + OFFSET", possibly followed by "(symbol + N)" as KSCrash writes.
            if let open = tail.firstIndex(of: "("), tail.hasSuffix(")") {
                let inner = tail[tail.index(after: open) ..< tail.index(before: tail.endIndex)]
                (frame.symbol, frame.symbolOffset) = symbolAndOffset(inner)
            }
            return frame
        }
        // "symbol + N (File.swift:12)" or "symbol (in Image) (File.swift:12)".
        if tail.hasSuffix(")"), let open = tail.lastIndex(of: "(") {
            let inner = tail[tail.index(after: open) ..< tail.index(before: tail.endIndex)]
            if let colon = inner.lastIndex(of: ":"), let lineNumber = Int(inner[inner.index(after: colon)...]) {
                frame.sourceFile = String(inner[..<colon])
                frame.sourceLine = lineNumber
                tail = tail[..<open].trimmingCharacters(in: .whitespaces)[...]
            }
        }
        if let inImage = tail.range(of: " (in ") { tail = tail[..<inImage.lowerBound] }
        if !tail.isEmpty { (frame.symbol, frame.symbolOffset) = symbolAndOffset(tail) }
        return frame
    }

    static func symbolAndOffset(_ text: Substring) -> (String?, UInt64?) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let plus = trimmed.range(of: " + ", options: .backwards), let offset = UInt64(trimmed[plus.upperBound...]) {
            let symbol = trimmed[..<plus.lowerBound].trimmingCharacters(in: .whitespaces)
            return (symbol.isEmpty ? nil : symbol, offset)
        }
        return (trimmed.isEmpty ? nil : trimmed, nil)
    }

    mutating func readImages() -> [CrashReport.Image] {
        var images: [CrashReport.Image] = []
        while index < lines.count {
            let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { break }
            if let image = Self.image(trimmed[...]) { images.append(image) }
            index += 1
        }
        return images
    }

    /// `0xSTART - 0xEND [+]name [arch] [(version)] <uuid> /path`.
    static func image(_ line: Substring) -> CrashReport.Image? {
        let startToken = line.prefix { !$0.isWhitespace }
        guard let start = hex(startToken) else { return nil }
        var rest = line.dropFirst(startToken.count).drop { $0.isWhitespace }
        guard rest.hasPrefix("-") else { return nil }
        rest = rest.dropFirst().drop { $0.isWhitespace }
        let endToken = rest.prefix { !$0.isWhitespace }
        let end = hex(endToken)
        rest = rest.dropFirst(endToken.count).drop { $0.isWhitespace }
        var uuid: UUID?
        var path: String?
        var descriptor = rest
        if let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            uuid = Self.uuid(rest[rest.index(after: open) ..< close])
            descriptor = rest[..<open]
            let after = rest[rest.index(after: close)...].trimmingCharacters(in: .whitespaces)
            path = after.isEmpty ? nil : after
        } else if let slash = rest.range(of: " /") {
            descriptor = rest[..<slash.lowerBound]
            path = rest[rest.index(after: slash.lowerBound)...].trimmingCharacters(in: .whitespaces)
        }
        var text = descriptor.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("+") { text.removeFirst() }
        var architecture: String?
        // Trailing "(version)" groups and an architecture, bare or in parentheses.
        for _ in 0 ..< 4 {
            if text.hasSuffix(")"), let open = text.lastIndex(of: "(") {
                let inner = String(text[text.index(after: open) ..< text.index(before: text.endIndex)])
                if architectures.contains(inner) { architecture = inner }
                text = text[..<open].trimmingCharacters(in: .whitespaces)
                continue
            }
            if let space = text.lastIndex(of: " "), architectures.contains(String(text[text.index(after: space)...])) {
                architecture = String(text[text.index(after: space)...])
                text = text[..<space].trimmingCharacters(in: .whitespaces)
            }
            break
        }
        if text.isEmpty, let path { text = String(path.split(separator: "/").last ?? "") }
        var image = CrashReport.Image(name: text.isEmpty ? "???" : text, path: path, uuid: uuid, architecture: architecture,
                                      loadAddress: start, endAddress: end)
        if text.contains("."), !text.contains(" "), let path, !path.hasSuffix("/" + text) { image.bundleIdentifier = text }
        return image
    }

    /// A UUID written with or without dashes, in either case.
    static func uuid(_ text: Substring) -> UUID? {
        let hexDigits = text.filter { $0 != "-" }
        guard hexDigits.count == 32, hexDigits.allSatisfy(\.isHexDigit) else { return nil }
        var dashed = ""
        for (i, character) in hexDigits.enumerated() {
            if [8, 12, 16, 20].contains(i) { dashed.append("-") }
            dashed.append(character)
        }
        return UUID(uuidString: dashed)
    }
}

extension CrashReport.Exception {
    func with(_ change: (inout CrashReport.Exception) -> Void) -> CrashReport.Exception {
        var copy = self
        change(&copy)
        return copy
    }
}
