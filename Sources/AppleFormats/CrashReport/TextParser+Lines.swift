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
        while index < lines.count, appendFrame(lines[index], textLine: index, to: &frames) {
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
                if let address = line.slice(cursor, tokenEnd).hexAddress, frameCount <= maxFrames {
                    var frame = CrashReport.Frame(number: frames.count, address: address)
                    frame.textLine = start
                    frames.append(frame)
                    frameCount += 1
                }
                cursor = tokenEnd
            }
            if closed != nil { break }
        }
        return frames
    }

    /// One frame line: `N  Image Name  0xADDRESS  (0xBASE + OFFSET | symbol + OFFSET [(file:line)])`.
    ///
    /// Every line of every thread goes through here, so the common case (`N  Image  0xADDR 0xBASE + N`)
    /// is one forward scan, and the frame is made once at the end from locals, straight into
    /// `frames` (a frame returned, even made in one step, was copied: four strings retained and
    /// released). False, with nothing appended, when the line is not a frame.
    mutating func appendFrame(_ line: TextSlice, textLine: Int?, to frames: inout [CrashReport.Frame]) -> Bool {
        guard frameCount <= maxFrames else { return false }
        let base = line.base
        var cursor = line.start
        let end = line.end
        while cursor < end, base[cursor] == 0x20 || base[cursor] == 0x09 { cursor += 1 }
        let digitsStart = cursor
        var number = 0
        while cursor < end, base[cursor].isASCIIDigit, cursor - digitsStart < 8 {
            number = number * 10 + Int(base[cursor] &- 0x30)
            cursor += 1
        }
        // At most 7 digits, then a blank.
        guard cursor > digitsStart, cursor - digitsStart < 8, cursor < end, base[cursor] == 0x20 || base[cursor] == 0x09 else { return false }
        let rest = line.suffix(from: cursor)
        // The address is the first blank-delimited hexadecimal "0x" token after the image name.
        var search = cursor + 1
        var address: UInt64?
        var tokenStart = 0, tokenEnd = 0
        while search + 1 < end {
            // The image name's padding is skipped by memchr, not byte by byte.
            guard let zero = TextSlice(base, search, end - 1).firstIndex(of: UInt8(ascii: "0")) else { break }
            search = zero
            guard base[search + 1] == UInt8(ascii: "x") else {
                search += 1
                continue
            }
            let before = base[search - 1]
            if before == 0x20 || before == 0x09, let (value, stop) = TextSlice.hexDigits(base, from: search + 2, end: end, stopAtBlank: true),
               stop == end || base[stop].isBlank {
                address = value
                tokenStart = search
                tokenEnd = stop
                break
            }
            search += 2
        }
        guard let address else { return false }
        // The name, without the blanks around it: image names are padded with dozens of spaces
        // (then a tab), skipped eight at a time.
        var nameStart = rest.start, nameEnd = tokenStart
        while nameStart < nameEnd, base[nameStart].isBlank { nameStart += 1 }
        while nameEnd > nameStart {
            if nameEnd - nameStart >= 8, let origin = base.baseAddress,
               UnsafeRawPointer(origin + nameEnd - 8).loadUnaligned(as: UInt64.self) == 0x2020_2020_2020_2020 {
                nameEnd -= 8
            } else if base[nameEnd - 1].isBlank {
                nameEnd -= 1
            } else {
                break
            }
        }
        let imageName = nameStart == nameEnd ? nil : interned(TextSlice(base, nameStart, nameEnd))
        var tail = rest.suffix(from: tokenEnd).trimmed
        if tail.isEmpty {
            let frame = CrashReport.Frame(number: number, address: address, imageName: imageName, textLine: textLine)
            frames.append(consume frame)
            frameCount += 1
            return true
        }
        if tail.hasSuffix("[inlined]") { tail = tail.dropLast("[inlined]".utf8.count).trimmed }
        var symbol: String?, symbolOffset: UInt64?, sourceFile: String?, sourceLine: Int?
        if tail.hasPrefix("0x") {
            // "0xBASE + OFFSET", possibly followed by "(symbol + N)" as KSCrash writes.
            if tail.last == UInt8(ascii: ")"), let open = tail.firstIndex(of: UInt8(ascii: "(")) {
                (symbol, symbolOffset) = Self.symbolAndOffset(tail.slice(open + 1, tail.end - 1))
            }
        } else {
            // "symbol + N (File.swift:12)" or "symbol (in Image) (File.swift:12)".
            if let (head, inner) = Self.trailingGroup(tail, open: UInt8(ascii: "("), close: UInt8(ascii: ")")),
               let colon = inner.lastIndex(of: UInt8(ascii: ":")), let lineNumber = inner.suffix(from: colon + 1).int {
                sourceFile = inner.prefix(upTo: colon).string
                sourceLine = lineNumber
                tail = head
            }
            if let inImage = tail.range(of: " (in ") { tail = tail.prefix(upTo: inImage.lowerBound) }
            if !tail.isEmpty { (symbol, symbolOffset) = Self.symbolAndOffset(tail) }
        }
        let frame = CrashReport.Frame(number: number, address: address, imageName: imageName, symbol: symbol, symbolOffset: symbolOffset,
                                      sourceFile: sourceFile, sourceLine: sourceLine, textLine: textLine)
        frames.append(consume frame)
        frameCount += 1
        return true
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
        // (Bytes, not Characters: `contains` on a String breaks graphemes.)
        if name.utf8.contains(UInt8(ascii: ".")), !name.utf8.contains(UInt8(ascii: " ")), let path, !path.hasSuffix("/" + name) {
            image.bundleIdentifier = name
        }
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
