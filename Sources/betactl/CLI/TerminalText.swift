/// Text made safe to print on a terminal: the CLI prints names, notes, crash fields and file
/// contents that came from outside, and a control character among them (ESC starting a screen
/// clear or a window-title sequence, BEL, a carriage return that overwrites the line, a
/// bidirectional override that reorders it) must not reach the terminal as one.
///
/// Each such character is written as a JSON-style escape, `\u001B`: readable in text output, and
/// inside a JSON string (where encoders leave DEL, C1 and bidi controls raw) the same character
/// again, so the filter never breaks JSON output. Kept as they are: newline and tab (where the
/// CLI writes them; `cell` escapes them too) and the CLI's own styling, exactly the SGR
/// sequences `Style` writes (`ESC[0m`, `1m`, `2m`, `31m`, `32m`, `33m`, `36m`).
enum TerminalText {
    /// `text` with every control character but newline and tab (and `Style`'s escapes) escaped.
    static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0, keepLineBreaks: true) }) else { return text }
        return escaped(text, keepLineBreaks: true)
    }

    /// `text` as one table cell or one value on a line: newlines and tabs are escaped too.
    static func cell(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0, keepLineBreaks: false) }) else { return text }
        return escaped(text, keepLineBreaks: false)
    }

    /// `bytes` (UTF-8 text) made safe like `safe`; the bytes themselves when nothing needs it,
    /// which a scan tells without decoding.
    static func safe(bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard needsEscaping(bytes) else { return nil }
        return Array(safe(String(decoding: bytes, as: UTF8.self)).utf8)
    }

    /// Whether any byte sequence of `bytes` may be a character `safe` escapes.
    static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x0A, 0x09: break
            case 0x00 ..< 0x20, 0x7F: return true
            // C1 controls (C2 80–9F), U+061C (D8 9C) and the marks and overrides of U+200E–U+2069 (E2 80/81 …).
            case 0xC2: if index + 1 < bytes.count, (0x80 ... 0x9F).contains(bytes[index + 1]) { return true }
            case 0xD8: if index + 1 < bytes.count, bytes[index + 1] == 0x9C { return true }
            case 0xE2: if index + 1 < bytes.count, bytes[index + 1] == 0x80 || bytes[index + 1] == 0x81 { return true }
            default: break
            }
            index += 1
        }
        return false
    }

    /// The escapes `Style` writes, after the ESC.
    static let styleSequences: [[Unicode.Scalar]] = ["[0m", "[1m", "[2m", "[31m", "[32m", "[33m", "[36m"].map { Array($0.unicodeScalars) }

    static func isUnsafe(_ scalar: Unicode.Scalar, keepLineBreaks: Bool) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: return !keepLineBreaks
        case 0x00 ..< 0x20, 0x7F ... 0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x202A ... 0x202E, 0x2066 ... 0x2069: return true
        default: return false
        }
    }

    static func escaped(_ text: String, keepLineBreaks: Bool) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{1B}", let style = styleSequences.first(where: { scalars[(index + 1)...].starts(with: $0) }) {
                result.append(scalar)
                result.append(contentsOf: style)
                index += 1 + style.count
                continue
            }
            if isUnsafe(scalar, keepLineBreaks: keepLineBreaks) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result.append(contentsOf: ("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).unicodeScalars)
            } else {
                result.append(scalar)
            }
            index += 1
        }
        return String(result)
    }
}
