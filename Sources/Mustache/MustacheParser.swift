/// Compiles a template's UTF-8 source into nodes, in three linear passes: find the tags, decide
/// which stand alone on their line (those lines vanish from the output), then build the section
/// tree with the text between tags.
struct MustacheParser {
    /// One tag of the source.
    struct Tag {
        enum Kind: Equatable {
            case variable(escaped: Bool)
            case section
            case inverted
            case close
            case comment
            case partial

            /// Section, inverted, closing, comment and partial tags vanish with their line when
            /// nothing else is on it; interpolations never do.
            var canStandAlone: Bool {
                if case .variable = self { false } else { true }
            }
        }

        var kind: Kind
        /// The trimmed name (empty for comments).
        var name: String
        /// The tag as written, normalised, for messages.
        var display: String
        /// The offset of the opening `{{`.
        var start: Int
        /// The offset just past the closing `}}`.
        var end: Int
        var line: Int
        /// What the tag removes from the output: itself, or its whole line when it stands alone.
        var removedStart: Int
        var removedEnd: Int
        var isStandalone = false
    }

    let source: [UInt8]
    let path: String
    let limits: MustacheLimits

    func parse() throws(MustacheError) -> [MustacheNode] {
        guard source.count <= limits.maximumTemplateBytes else {
            throw MustacheError(.templateTooLarge, path: path, line: nil, tag: nil,
                                reason: "the template is \(source.count) bytes, more than the limit of \(limits.maximumTemplateBytes); split it into partials")
        }
        var tags = try findTags()
        markStandaloneLines(&tags)
        return try buildTree(tags)
    }

    // MARK: Pass 1: tags

    func findTags() throws(MustacheError) -> [Tag] {
        var tags: [Tag] = []
        var line = 1
        var position = 0
        while let open = find(.openBrace, .openBrace, from: position) {
            line += newlines(position ..< open)
            var contentStart = open + 2
            let isTriple = contentStart < source.count && source[contentStart] == .openBrace
            if isTriple { contentStart += 1 }
            guard let close = find(.closeBrace, .closeBrace, from: contentStart) else {
                throw MustacheError(.unclosedTag, path: path, line: line, tag: snippet(from: open),
                                    reason: "the tag \(snippet(from: open)) is never closed; add }}")
            }
            var end = close + 2
            if isTriple {
                guard end < source.count, source[end] == .closeBrace else {
                    let written = "{{{" + shown(contentStart ..< close) + "}}"
                    throw MustacheError(.unclosedTag, path: path, line: line, tag: written,
                                        reason: "the tag \(written) opens with {{{ but closes with }}; close it with }}}")
                }
                end += 1
            }
            var tag = try classify(contentStart ..< close, isTriple: isTriple, open: open, line: line)
            tag.end = end
            tag.removedEnd = end
            tags.append(tag)
            line += newlines(open ..< end)
            position = end
        }
        return tags
    }

    func classify(_ content: Range<Int>, isTriple: Bool, open: Int, line: Int) throws(MustacheError) -> Tag {
        let trimmed = trim(content)
        func make(_ kind: Tag.Kind, _ name: String, _ display: String) -> Tag {
            Tag(kind: kind, name: name, display: display, start: open, end: 0, line: line, removedStart: open, removedEnd: 0)
        }
        if let first = trimmed.first, source[first] == .bang, !isTriple {
            return make(.comment, "", "{{! … }}")
        }
        if let nested = find(.openBrace, .openBrace, from: content.lowerBound, before: content.upperBound) {
            let written = "{{" + (isTriple ? "{" : "") + shown(content.lowerBound ..< nested).trimmingTrailingBlanks
            throw MustacheError(.unclosedTag, path: path, line: line, tag: written,
                                reason: "the tag \(written) is never closed before the next {{; add }}")
        }
        if isTriple {
            let name = try validatedName(trimmed, display: { "{{{\($0)}}}" }, line: line)
            return make(.variable(escaped: false), name, "{{{\(name)}}}")
        }
        guard let first = trimmed.first else {
            throw MustacheError(.emptyTag, path: path, line: line, tag: "{{}}",
                                reason: "the tag {{}} is empty; write a name inside it, such as {{name}}, or remove it")
        }
        let rest = trim(first + 1 ..< trimmed.upperBound)
        switch source[first] {
        case .hash: return try named(.section, sigil: "#", rest, line: line, make)
        case .caret: return try named(.inverted, sigil: "^", rest, line: line, make)
        case .slash: return try named(.close, sigil: "/", rest, line: line, make)
        case .ampersand: return try named(.variable(escaped: false), sigil: "&", rest, line: line, make)
        case .greaterThan:
            guard !rest.isEmpty else {
                throw MustacheError(.emptyTag, path: path, line: line, tag: "{{>}}",
                                    reason: "the partial tag {{>}} names no partial; write the template's name after >, such as {{> footer}}")
            }
            guard rest.allSatisfy({ source[$0].isPartialNameByte }) else {
                let written = "{{> " + shown(rest) + "}}"
                throw MustacheError(.invalidName, path: path, line: line, tag: written,
                                    reason: "the partial tag \(written) has an invalid name; partial names use letters, digits, _, -, . and /")
            }
            return make(.partial, text(rest), "{{> " + text(rest) + "}}")
        case .equals:
            let written = "{{" + shown(trimmed) + "}}"
            throw MustacheError(.setDelimiter, path: path, line: line, tag: written,
                                reason: "set-delimiter tags such as \(written) are not supported; keep the {{ }} delimiters")
        case .lessThan, .dollar:
            let written = "{{" + shown(trimmed) + "}}"
            throw MustacheError(.unsupportedTag, path: path, line: line, tag: written,
                                reason: "\(written) is template inheritance, which is not supported; use a partial ({{> name}}) instead")
        default:
            let name = try validatedName(trimmed, display: { "{{\($0)}}" }, line: line)
            return make(.variable(escaped: true), name, "{{\(name)}}")
        }
    }

    func named(_ kind: Tag.Kind, sigil: String, _ range: Range<Int>, line: Int,
               _ make: (Tag.Kind, String, String) -> Tag) throws(MustacheError) -> Tag {
        guard !range.isEmpty else {
            throw MustacheError(.emptyTag, path: path, line: line, tag: "{{\(sigil)}}",
                                reason: "the tag {{\(sigil)}} has no name; write one after \(sigil), such as {{\(sigil)name}}")
        }
        let name = try validatedName(range, display: { "{{\(sigil)\($0)}}" }, line: line)
        return make(kind, name, "{{\(sigil)\(name)}}")
    }

    /// A name is `.` or dot-separated parts of letters, digits, `_` and `-`.
    func validatedName(_ range: Range<Int>, display: (String) -> String, line: Int) throws(MustacheError) -> String {
        let name = text(range)
        guard !range.isEmpty else {
            throw MustacheError(.emptyTag, path: path, line: line, tag: display(""),
                                reason: "the tag \(display("")) has no name; write one inside it, such as \(display("name"))")
        }
        if name == "." { return name }
        var partLength = 0
        var valid = true
        for index in range {
            let byte = source[index]
            if byte == .dot {
                if partLength == 0 { valid = false }
                partLength = 0
            } else if byte.isNameByte {
                partLength += 1
            } else {
                valid = false
            }
        }
        guard valid, partLength > 0 else {
            let written = display(shown(range))
            throw MustacheError(.invalidName, path: path, line: line, tag: written,
                                reason: "the tag \(written) has an invalid name; names use letters, digits, _ and -, with dots between the parts of a dotted name")
        }
        return name
    }

    // MARK: Pass 2: standalone lines

    /// A section, inverted, closing, comment or partial tag with only spaces and tabs around it on
    /// its line(s) takes the whole line, its line ending included, out of the output.
    func markStandaloneLines(_ tags: inout [Tag]) {
        var previousEnd = 0
        for index in tags.indices {
            defer { previousEnd = tags[index].end }
            let tag = tags[index]
            guard tag.kind.canStandAlone else { continue }
            // Only the text since the previous tag can hold this line's start; scanning no further
            // keeps the pass linear even with many tags on one long line.
            var lineStart = tag.start
            while lineStart > previousEnd, source[lineStart - 1].isBlank { lineStart -= 1 }
            guard lineStart == 0 || source[lineStart - 1] == .newline else { continue }
            var after = tag.end
            while after < source.count, source[after].isBlank { after += 1 }
            let lineEnd: Int
            if after == source.count {
                lineEnd = after
            } else if source[after] == .newline {
                lineEnd = after + 1
            } else if source[after] == .carriageReturn, after + 1 < source.count, source[after + 1] == .newline {
                lineEnd = after + 2
            } else {
                continue
            }
            tags[index].isStandalone = true
            tags[index].removedStart = lineStart
            tags[index].removedEnd = lineEnd
        }
    }
}
