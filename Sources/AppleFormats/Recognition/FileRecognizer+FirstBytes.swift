extension FileRecognizer {
    /// Signatures of common files betactl does not read, to name them in messages.
    static let foreignMagic: [([UInt8], String)] = [
        ([0x7F, 0x45, 0x4C, 0x46], "an ELF executable (Linux, not Apple)"),
        ([0x1F, 0x8B], "gzip-compressed data; decompress it first"),
        ([0x42, 0x5A, 0x68], "bzip2-compressed data; decompress it first"),
        ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "xz-compressed data; decompress it first"),
        ([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], "a 7-Zip archive"),
        (Array("%PDF".utf8), "a PDF document"),
        ([0xFF, 0xD8, 0xFF], "a JPEG image"),
        (Array("GIF8".utf8), "a GIF image"),
        (Array("SQLite format 3".utf8), "an SQLite database"),
        ([0xCA, 0xFE, 0xBA, 0xBE], "a Java class file or a damaged fat Mach-O header"),
        ([0xFE, 0xED, 0xFA], "a big-endian Mach-O file (PowerPC era), which betactl does not read"),
        (Array("xar!".utf8), "a xar archive (a .pkg installer?)"),
        (Array("MZ".utf8), "a Windows executable"),
    ]

    /// What the first bytes of an unknown file look like: quoted text, or hex with a guess.
    public static func describeFirstBytes(_ bytes: some Collection<UInt8>) -> String {
        let head = Array(bytes.prefix(512))
        guard !head.isEmpty else { return "an empty file" }
        for (magic, name) in foreignMagic where head.starts(with: magic) {
            return "\(name) (it starts with \(hex(head.prefix(8))))"
        }
        if head.count > 262, Array(head[257 ..< 262]) == Array("ustar".utf8) { return "a tar archive" }
        if looksLikeText(head) {
            var text = head.drop { $0.isXMLWhitespace || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
            text = text.prefix { $0 != 0x0A && $0 != 0x0D }
            let line = String(decoding: text.prefix(60), as: UTF8.self)
            let shown = line.unicodeScalars.map { $0.value < 0x20 ? "?" : String($0) }.joined()
            return "text starting with \"\(shown)\(text.count > 60 ? "…" : "")\""
        }
        if head.first == 0x30 {
            return "ASN.1 data starting with \(hex(head.prefix(8))) that is not a CMS signed envelope (perhaps a certificate, or a truncated profile)"
        }
        return "binary data starting with \(hex(head.prefix(8)))"
    }

    /// Mostly printable UTF-8 (a multi-byte character cut by the window is allowed).
    static func looksLikeText(_ head: [UInt8]) -> Bool {
        var printable = 0
        for byte in head where byte >= 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { printable += 1 }
        guard printable * 100 >= head.count * 97, !head.contains(0) else { return false }
        var trimmed = head[...]
        while let last = trimmed.last, last >= 0x80, trimmed.count > head.count - 4 { trimmed = trimmed.dropLast() }
        return String(validating: trimmed, as: UTF8.self) != nil || String(validating: head, as: UTF8.self) != nil
    }

    static func hex(_ bytes: some Collection<UInt8>) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
    }
}
