#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Frame lines, backtraces and Binary Images lines of the text layout.
extension TextParser {
    mutating func readFrames() -> [CrashReport.Frame] {
        var frames: [CrashReport.Frame] = []
        frames.reserveCapacity(32)
        while index < lines.count, let frame = frame(lines[index], textLine: index) {
            frames.append(frame)
            index += 1
        }
        return frames
    }

    /// The line form (numbered frames) or the compact form "(0x1 0x2 …)", which may wrap.
    mutating func readBacktrace() -> [CrashReport.Frame] {
        while index < lines.count, lines[index].isBlankLine { index += 1 }
        guard index < lines.count else { return [] }
        guard lines[index].trimmed.first == UInt8(ascii: "(") else { return readFrames() }
        let start = index
        var frames: [CrashReport.Frame] = []
        while index < lines.count {
            let line = lines[index]
            index += 1
            let closed = line.firstIndex(of: UInt8(ascii: ")"))
            var cursor = line.start
            let end = closed ?? line.end
            // Tokens are separated by blanks and the opening parenthesis.
            while cursor < end {
                while cursor < end, line.base[cursor] == 0x20 || line.base[cursor] == 0x09 || line.base[cursor] == UInt8(ascii: "(") { cursor += 1 }
                var tokenEnd = cursor
                while tokenEnd < end, line.base[tokenEnd] != 0x20, line.base[tokenEnd] != 0x09, line.base[tokenEnd] != UInt8(ascii: "(") { tokenEnd += 1 }
                if let address = line.slice(cursor, tokenEnd).hexAddress {
                    var frame = CrashReport.Frame(number: frames.count, address: address)
                    frame.textLine = start
                    frames.append(frame)
                }
                cursor = tokenEnd
            }
            if closed != nil { break }
        }
        return frames
    }

    /// One frame line: `N  Image Name  0xADDRESS  (0xBASE + OFFSET | symbol + OFFSET [(file:line)])`.
    mutating func frame(_ line: TextSlice, textLine: Int? = nil) -> CrashReport.Frame? {
        let body = line.droppingLeadingBlanks
        let digits = body.leadingDigits
        guard !digits.isEmpty, digits.count < 8, let number = digits.int else { return nil }
        let rest = body.suffix(from: digits.end)
        guard let first = rest.first, first == 0x20 || first == 0x09 else { return nil }
        // The address is the first blank-delimited hexadecimal token after the image name.
        var cursor = rest
        var found: (TextSlice, UInt64)?
        while let range = cursor.range(of: "0x") {
            let before = rest.base[range.lowerBound - 1]
            let token = rest.suffix(from: range.lowerBound).leadingToken
            if before == 0x20 || before == 0x09, let value = token.hexAddress {
                found = (token, value)
                break
            }
            cursor = rest.suffix(from: range.upperBound)
        }
        guard let (token, address) = found else { return nil }
        var frame = CrashReport.Frame(number: number, address: address)
        frame.textLine = textLine
        let name = rest.prefix(upTo: token.start).trimmed
        frame.imageName = name.isEmpty ? nil : interned(name)
        var tail = rest.suffix(from: token.end).trimmed
        if tail.hasSuffix("[inlined]") { tail = tail.dropLast("[inlined]".utf8.count).trimmed }
        if tail.hasPrefix("0x") {
            // "0xBASE + OFFSET", possibly followed by "(symbol + N)" as KSCrash writes.
            if let open = tail.firstIndex(of: UInt8(ascii: "(")), tail.last == UInt8(ascii: ")") {
                (frame.symbol, frame.symbolOffset) = Self.symbolAndOffset(tail.slice(open + 1, tail.end - 1))
            }
            return frame
        }
        // "symbol + N (File.swift:12)" or "symbol (in Image) (File.swift:12)".
        if let (head, inner) = Self.trailingGroup(tail, open: UInt8(ascii: "("), close: UInt8(ascii: ")")),
           let colon = inner.lastIndex(of: UInt8(ascii: ":")), let lineNumber = inner.suffix(from: colon + 1).int {
            frame.sourceFile = inner.prefix(upTo: colon).string
            frame.sourceLine = lineNumber
            tail = head
        }
        if let inImage = tail.range(of: " (in ") { tail = tail.prefix(upTo: inImage.lowerBound) }
        if !tail.isEmpty { (frame.symbol, frame.symbolOffset) = Self.symbolAndOffset(tail) }
        return frame
    }

    static func symbolAndOffset(_ text: TextSlice) -> (String?, UInt64?) {
        let trimmed = text.trimmed
        if let plus = trimmed.lastRange(of: " + "), let offset = trimmed.suffix(from: plus.upperBound).decimal {
            let symbol = trimmed.prefix(upTo: plus.lowerBound).trimmed
            return (symbol.isEmpty ? nil : symbol.string, offset)
        }
        return (trimmed.isEmpty ? nil : trimmed.string, nil)
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
    static func image(_ line: TextSlice) -> CrashReport.Image? {
        let startToken = line.leadingToken
        guard let start = startToken.hexAddress else { return nil }
        var rest = line.suffix(from: startToken.end).droppingLeadingBlanks
        guard rest.first == UInt8(ascii: "-") else { return nil }
        rest = rest.dropFirst().droppingLeadingBlanks
        let endToken = rest.leadingToken
        let end = endToken.hexAddress
        rest = rest.suffix(from: endToken.end).droppingLeadingBlanks
        var uuid: UUID?
        var path: String?
        var descriptor = rest
        if let open = rest.firstIndex(of: UInt8(ascii: "<")), let close = rest.suffix(from: open).firstIndex(of: UInt8(ascii: ">")) {
            uuid = Self.uuid(rest.slice(open + 1, close))
            descriptor = rest.prefix(upTo: open)
            let after = rest.suffix(from: close + 1).trimmed
            path = after.isEmpty ? nil : after.string
        } else if let slash = rest.range(of: " /") {
            descriptor = rest.prefix(upTo: slash.lowerBound)
            path = rest.suffix(from: slash.lowerBound + 1).trimmed.string
        }
        var text = descriptor.trimmed
        if text.first == UInt8(ascii: "+") { text = text.dropFirst() }
        var architecture: String?
        // Trailing "(version)" groups and an architecture, bare or in parentheses.
        for _ in 0 ..< 4 {
            if let (head, inner) = trailingGroup(text, open: UInt8(ascii: "("), close: UInt8(ascii: ")")) {
                if isArchitecture(inner) { architecture = inner.string }
                text = head
                continue
            }
            if let space = text.lastIndex(of: 0x20), isArchitecture(text.suffix(from: space + 1)) {
                architecture = text.suffix(from: space + 1).string
                text = text.prefix(upTo: space).trimmed
            }
            break
        }
        var name = text.string
        if name.isEmpty, let path { name = String(path.split(separator: "/").last ?? "") }
        var image = CrashReport.Image(name: name.isEmpty ? "???" : name, path: path, uuid: uuid, architecture: architecture,
                                      loadAddress: start, endAddress: end)
        if name.contains("."), !name.contains(" "), let path, !path.hasSuffix("/" + name) { image.bundleIdentifier = name }
        return image
    }

    /// A UUID written with or without dashes, in either case.
    static func uuid(_ text: TextSlice) -> UUID? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var high: UInt8?
        for position in text.start ..< text.end where text.base[position] != UInt8(ascii: "-") {
            guard let digit = text.base[position].hexDigitValue, bytes.count < 16 else { return nil }
            if let upper = high {
                bytes.append(upper << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
        guard bytes.count == 16, high == nil else { return nil }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// A UUID in a string (the `.ips` form).
    static func uuid(_ text: String) -> UUID? {
        var copy = text
        return copy.withUTF8 { uuid(TextSlice($0, 0, $0.count)) }
    }
}
