extension MustacheParser {
    /// An open section while its body is being collected.
    struct Frame {
        var tag: Tag?
        var nodes: [MustacheNode] = []
    }

    // MARK: Pass 3: the section tree

    func buildTree(_ tags: [Tag]) throws(MustacheError) -> [MustacheNode] {
        var frames = [Frame(tag: nil)]
        var textStart = 0
        for tag in tags {
            // A standalone tag's line is gone, so no line starts where it started.
            appendLiteral(textStart ..< tag.removedStart, lineStartAtEnd: !tag.isStandalone, to: &frames[frames.count - 1].nodes)
            textStart = tag.removedEnd
            switch tag.kind {
            case .comment:
                break
            case let .variable(escaped):
                frames[frames.count - 1].nodes.append(.variable(reference(tag), escaped: escaped))
            case .partial:
                let indentation = tag.isStandalone ? Array(source[tag.removedStart ..< tag.start]) : nil
                let call = MustacheNode.PartialCall(name: tag.name, indentation: indentation, isConditional: frames.count > 1,
                                                    tag: tag.display, line: tag.line)
                frames[frames.count - 1].nodes.append(.partial(call))
            case .section, .inverted:
                guard frames.count <= limits.maximumSectionNesting else {
                    throw MustacheError(.nestingTooDeep, path: path, line: tag.line, tag: tag.display,
                                        reason: "the section \(tag.display) is nested \(frames.count) deep, more than the limit of \(limits.maximumSectionNesting); move inner parts into partials")
                }
                frames.append(Frame(tag: tag))
            case .close:
                guard frames.count > 1, let open = frames.last?.tag else {
                    throw MustacheError(.unopenedClose, path: path, line: tag.line, tag: tag.display,
                                        reason: "\(tag.display) closes no open section; remove it or open the section before it with {{#\(tag.name)}}")
                }
                guard open.name == tag.name else {
                    throw MustacheError(.mismatchedClose, path: path, line: tag.line, tag: tag.display,
                                        reason: "\(tag.display) closes \(open.display) opened on line \(open.line); add {{/\(open.name)}} before it or correct the name")
                }
                let body = frames.removeLast().nodes
                let section = MustacheNode.section(reference(open), body: body, inverted: open.kind == .inverted)
                frames[frames.count - 1].nodes.append(section)
            }
        }
        if let open = frames.last?.tag {
            throw MustacheError(.unclosedSection, path: path, line: open.line, tag: open.display,
                                reason: "the section \(open.display) opened here is never closed; add {{/\(open.name)}}")
        }
        appendLiteral(textStart ..< source.count, lineStartAtEnd: true, to: &frames[0].nodes)
        return frames[0].nodes
    }

    func reference(_ tag: Tag) -> MustacheNode.Reference {
        let parts = tag.name == "." ? [] : tag.name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        return MustacheNode.Reference(parts: parts, tag: tag.display, line: tag.line)
    }

    /// Appends the text in `range`, merged into a literal just before it (text on both sides of
    /// a comment becomes one chunk), with the offsets where source lines start inside it. The end
    /// of the source starts no line, since nothing follows it.
    func appendLiteral(_ range: Range<Int>, lineStartAtEnd: Bool, to nodes: inout [MustacheNode]) {
        var lineStarts: [Int] = []
        var position = range.lowerBound
        while position <= range.upperBound, position < source.count {
            let startsLine = position == 0 || source[position - 1] == .newline
            if startsLine, position < range.upperBound || lineStartAtEnd { lineStarts.append(position - range.lowerBound) }
            position += 1
        }
        guard !range.isEmpty || !lineStarts.isEmpty else { return }
        if case var .literal(previous)? = nodes.last {
            let offset = previous.bytes.count
            previous.bytes.append(contentsOf: source[range])
            for start in lineStarts where previous.lineStarts.last != start + offset {
                previous.lineStarts.append(start + offset)
            }
            nodes[nodes.count - 1] = .literal(previous)
        } else {
            nodes.append(.literal(MustacheNode.Literal(bytes: Array(source[range]), lineStarts: lineStarts)))
        }
    }

    // MARK: Byte helpers

    /// The offset of the first `first, second` pair at or after `start` (and wholly before `limit`).
    func find(_ first: UInt8, _ second: UInt8, from start: Int, before limit: Int? = nil) -> Int? {
        let end = (limit ?? source.count) - 1
        var index = start
        while index < end {
            if source[index] == first {
                if source[index + 1] == second { return index }
            }
            index += 1
        }
        return nil
    }

    func newlines(_ range: Range<Int>) -> Int {
        var count = 0
        for index in range where source[index] == .newline { count += 1 }
        return count
    }

    /// `range` without surrounding spaces, tabs and line breaks.
    func trim(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, source[lower].isWhitespace { lower += 1 }
        while upper > lower, source[upper - 1].isWhitespace { upper -= 1 }
        return lower ..< upper
    }

    func text(_ range: Range<Int>) -> String {
        String(decoding: source[range], as: UTF8.self)
    }

    /// The start of an unclosed tag for messages: the rest of its line, at most 30 bytes.
    func snippet(from open: Int) -> String {
        var end = open
        while end < source.count, end - open < 30, source[end] != .newline, source[end] != .carriageReturn { end += 1 }
        return text(open ..< end).trimmingTrailingBlanks + (end < source.count && end - open == 30 ? "…" : "")
    }
}

extension String {
    var trimmingTrailingBlanks: String {
        var text = Substring(self)
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
