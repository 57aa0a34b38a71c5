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
        while index < lines.count, lines[index].isBlankLine { index += 1 }
        guard index < lines.count else { return [] }
        guard lines[index].trimmed.hasPrefix("(") else { return readFrames() }
        let start = index
        var tokens: [Substring] = []
        while index < lines.count {
            let line = lines[index]
            index += 1
            let closed = line.firstIndex(ofByte: UInt8(ascii: ")"))
            let body = line[..<(closed ?? line.endIndex)]
            tokens += body.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "(" })
            if closed != nil { break }
        }
        var frames: [CrashReport.Frame] = []
        for token in tokens {
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
        let body = line.droppingLeadingBlanks
        let digits = body.leadingDigits
        guard !digits.isEmpty, digits.utf8.count < 8, let number = Int(digits) else { return nil }
        let rest = body[digits.endIndex...]
        guard let first = rest.utf8.first, first == 0x20 || first == 0x09 else { return nil }
        // The address is the first blank-delimited hexadecimal token after the image name.
        var cursor = rest[...]
        var found: (Substring, UInt64)?
        while let range = cursor.range(ofASCII: "0x") {
            let before = rest.utf8[rest.utf8.index(before: range.lowerBound)]
            let token = rest[range.lowerBound...].leadingToken
            if before == 0x20 || before == 0x09, let value = hex(token) {
                found = (token, value)
                break
            }
            cursor = rest[range.upperBound...]
        }
        guard let (token, address) = found else { return nil }
        var frame = CrashReport.Frame(number: number, address: address)
        let name = rest[..<token.startIndex].trimmed
        frame.imageName = name.isEmpty ? nil : String(name)
        var tail = rest[token.endIndex...].trimmed
        if tail.hasSuffix("[inlined]") { tail = tail.dropLast("[inlined]".count).trimmed }
        if tail.hasPrefix("0x") {
            // "0xBASE + OFFSET", possibly followed by "(symbol + N)" as KSCrash writes.
            if let open = tail.firstIndex(ofByte: UInt8(ascii: "(")), tail.hasSuffix(")") {
                let inner = tail[tail.utf8.index(after: open) ..< tail.utf8.index(before: tail.utf8.endIndex)]
                (frame.symbol, frame.symbolOffset) = symbolAndOffset(inner)
            }
            return frame
        }
        // "symbol + N (File.swift:12)" or "symbol (in Image) (File.swift:12)".
        if let (head, inner) = trailingGroup(tail, open: UInt8(ascii: "("), close: UInt8(ascii: ")")),
           let colon = inner.lastIndex(ofByte: UInt8(ascii: ":")), let lineNumber = Int(inner[inner.utf8.index(after: colon)...]) {
            frame.sourceFile = String(inner[..<colon])
            frame.sourceLine = lineNumber
            tail = head
        }
        if let inImage = tail.range(ofASCII: " (in ") { tail = tail[..<inImage.lowerBound] }
        if !tail.isEmpty { (frame.symbol, frame.symbolOffset) = symbolAndOffset(tail) }
        return frame
    }

    static func symbolAndOffset(_ text: Substring) -> (String?, UInt64?) {
        let trimmed = text.trimmed
        if let plus = trimmed.lastRange(ofASCII: " + "), let offset = UInt64(trimmed[plus.upperBound...]) {
            let symbol = trimmed[..<plus.lowerBound].trimmed
            return (symbol.isEmpty ? nil : String(symbol), offset)
        }
        return (trimmed.isEmpty ? nil : String(trimmed), nil)
    }

    mutating func readImages() -> [CrashReport.Image] {
        var images: [CrashReport.Image] = []
        while index < lines.count {
            let trimmed = lines[index].trimmed
            if trimmed.isEmpty { break }
            if let image = Self.image(trimmed) { images.append(image) }
            index += 1
        }
        return images
    }

    /// `0xSTART - 0xEND [+]name [arch] [(version)] <uuid> /path`.
    static func image(_ line: Substring) -> CrashReport.Image? {
        let startToken = line.leadingToken
        guard let start = hex(startToken) else { return nil }
        var rest = line[startToken.endIndex...].droppingLeadingBlanks
        guard rest.hasPrefix("-") else { return nil }
        rest = rest.dropFirst().droppingLeadingBlanks
        let endToken = rest.leadingToken
        let end = hex(endToken)
        rest = rest[endToken.endIndex...].droppingLeadingBlanks
        var uuid: UUID?
        var path: String?
        var descriptor = rest
        if let open = rest.firstIndex(ofByte: UInt8(ascii: "<")), let close = rest[open...].firstIndex(ofByte: UInt8(ascii: ">")) {
            uuid = Self.uuid(rest[rest.utf8.index(after: open) ..< close])
            descriptor = rest[..<open]
            let after = rest[rest.utf8.index(after: close)...].trimmed
            path = after.isEmpty ? nil : String(after)
        } else if let slash = rest.range(ofASCII: " /") {
            descriptor = rest[..<slash.lowerBound]
            path = String(rest[rest.utf8.index(after: slash.lowerBound)...].trimmed)
        }
        var text = descriptor.trimmed
        if text.hasPrefix("+") { text = text.dropFirst() }
        var architecture: String?
        // Trailing "(version)" groups and an architecture, bare or in parentheses.
        for _ in 0 ..< 4 {
            if let (head, inner) = trailingGroup(text, open: UInt8(ascii: "("), close: UInt8(ascii: ")")) {
                if architectures.contains(inner) { architecture = String(inner) }
                text = head
                continue
            }
            if let space = text.lastIndex(ofByte: 0x20), architectures.contains(text[text.utf8.index(after: space)...]) {
                architecture = String(text[text.utf8.index(after: space)...])
                text = text[..<space].trimmed
            }
            break
        }
        var name = String(text)
        if name.isEmpty, let path { name = String(path.split(separator: "/").last ?? "") }
        var image = CrashReport.Image(name: name.isEmpty ? "???" : name, path: path, uuid: uuid, architecture: architecture,
                                      loadAddress: start, endAddress: end)
        if name.contains("."), !name.contains(" "), let path, !path.hasSuffix("/" + name) { image.bundleIdentifier = name }
        return image
    }

    /// A UUID written with or without dashes, in either case.
    static func uuid(_ text: Substring) -> UUID? {
        var hexDigits: [UInt8] = []
        for byte in text.utf8 where byte != UInt8(ascii: "-") {
            guard byte.isASCIIHexDigit, hexDigits.count < 32 else { return nil }
            hexDigits.append(byte)
        }
        guard hexDigits.count == 32 else { return nil }
        var dashed = ""
        dashed.reserveCapacity(36)
        for (i, byte) in hexDigits.enumerated() {
            if i == 8 || i == 12 || i == 16 || i == 20 { dashed.append("-") }
            dashed.append(Character(Unicode.Scalar(byte)))
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
