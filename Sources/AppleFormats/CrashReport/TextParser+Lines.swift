#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Frame lines, backtraces and Binary Images lines of the text layout.
extension TextParser {
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
