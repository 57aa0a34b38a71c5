/// Release notes as plain text made readable: paragraphs at blank lines, line breaks kept, and
/// `http(s)://` URLs turned into links. The notes are never treated as HTML: every piece is text that
/// the template engine escapes, and only the link targets it recognises become links.
public struct ReleaseNotes: Sendable, Equatable {
    /// A run of text or a link inside a line.
    public enum Piece: Sendable, Equatable {
        /// Plain text.
        case text(String)
        /// A URL shown as itself and linked to itself.
        case link(String)
    }

    /// Paragraphs, each a list of lines, each a list of pieces.
    public var paragraphs: [[[Piece]]]

    /// Splits `text` into paragraphs, lines and pieces.
    public init(_ text: String) {
        var paragraphs: [[[Piece]]] = []
        var current: [[Piece]] = []
        let normalised = text.replacingCRLF()
        for line in normalised.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                if !current.isEmpty { paragraphs.append(current) }
                current = []
            } else {
                current.append(Self.pieces(of: line))
            }
        }
        if !current.isEmpty { paragraphs.append(current) }
        self.paragraphs = paragraphs
    }

    static func pieces(of line: Substring) -> [Piece] {
        var pieces: [Piece] = []
        var rest = line
        while let start = Self.nextURLStart(in: rest) {
            if start > rest.startIndex { pieces.append(.text(String(rest[..<start]))) }
            var end = rest[start...].firstIndex { $0 == " " || $0 == "\t" || $0 == "<" || $0 == ">" || $0 == "\"" } ?? rest.endIndex
            // Trailing punctuation usually ends the sentence, not the URL.
            while end > start, let last = rest[..<end].last, ".,;:!?)]}'".contains(last) {
                if last == ")" && rest[start..<end].contains("(") { break }
                end = rest.index(before: end)
            }
            let url = String(rest[start..<end])
            if url.count > "https://".count {
                pieces.append(.link(url))
            } else {
                pieces.append(.text(url))
            }
            rest = rest[end...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        return pieces
    }

    private static func nextURLStart(in text: Substring) -> Substring.Index? {
        var search = text[...]
        while let range = search.firstRange(of: "http") {
            let after = text[range.upperBound...]
            if after.hasPrefix("://") || after.hasPrefix("s://") {
                // Only at a word boundary: "xhttp://" is not a link.
                if range.lowerBound == text.startIndex || !(text[text.index(before: range.lowerBound)].isLetter
                    || text[text.index(before: range.lowerBound)].isNumber) {
                    return range.lowerBound
                }
            }
            search = text[range.upperBound...]
        }
        return nil
    }
}

extension String {
    func replacingCRLF() -> String {
        guard utf8.contains(13) else { return self }
        var out = ""
        var previousCR = false
        for scalar in unicodeScalars {
            if scalar == "\r" {
                out.unicodeScalars.append("\n")
                previousCR = true
            } else {
                if !(scalar == "\n" && previousCR) { out.unicodeScalars.append(scalar) }
                previousCR = false
            }
        }
        return out
    }
}
