extension MustacheParser {
    /// An open section while its body is being collected.
    struct Frame {
        var tag: Tag?
        var nodes: [MustacheNode] = []
        /// Text not yet made into a literal: text on both sides of comments becomes one chunk,
        /// appended to here in place so a run of many comments still costs linear time.
        var text: [UInt8] = []
        var lineStarts: [Int] = []

        mutating func append(_ node: MustacheNode) {
            flushText()
            nodes.append(node)
        }

        mutating func finish() -> [MustacheNode] {
            flushText()
            return nodes
        }

        mutating func flushText() {
            guard !text.isEmpty || !lineStarts.isEmpty else { return }
            nodes.append(.literal(MustacheNode.Literal(bytes: text, lineStarts: lineStarts)))
            text = []
            lineStarts = []
        }
    }

    // MARK: Pass 3: the section tree

    func buildTree(_ tags: [Tag]) throws(MustacheError) -> [MustacheNode] {
        var frames = [Frame(tag: nil)]
        var textStart = 0
        for tag in tags {
            // A standalone tag's line is gone, so no line starts where it started.
            appendText(textStart ..< tag.removedStart, lineStartAtEnd: !tag.isStandalone, to: &frames[frames.count - 1])
            textStart = tag.removedEnd
            switch tag.kind {
            case .comment:
                break
            case let .variable(escaped):
                frames[frames.count - 1].append(.variable(reference(tag, escaped: escaped)))
            case .partial:
                let indentation = tag.isStandalone ? Array(source[tag.removedStart ..< tag.start]) : nil
                let call = MustacheNode.PartialCall(name: tag.name, indentation: indentation, isConditional: frames.count > 1,
                                                    tag: tag.display, line: tag.line)
                frames[frames.count - 1].append(.partial(call))
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
                var closed = frames.removeLast()
                let body = closed.finish()
                let section = MustacheNode.Section(reference: reference(open, escaped: false), body: body, inverted: open.kind == .inverted)
                frames[frames.count - 1].append(.section(section))
            }
        }
        if let open = frames.last?.tag {
            throw MustacheError(.unclosedSection, path: path, line: open.line, tag: open.display,
                                reason: "the section \(open.display) opened here is never closed; add {{/\(open.name)}}")
        }
        appendText(textStart ..< source.count, lineStartAtEnd: true, to: &frames[0])
        return frames[0].finish()
    }

    func reference(_ tag: Tag, escaped: Bool) -> MustacheNode.Reference {
        let parts = tag.name == "." ? [] : tag.name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        return MustacheNode.Reference(parts: parts, escaped: escaped, tag: tag.display, line: tag.line)
    }

    /// Adds the text in `range` to the frame's pending literal, with the offsets where source
    /// lines start inside it. The end of the source starts no line, since nothing follows it.
    func appendText(_ range: Range<Int>, lineStartAtEnd: Bool, to frame: inout Frame) {
        var position = range.lowerBound
        while position <= range.upperBound, position < source.count {
            let startsLine = position == 0 || source[position - 1] == .newline
            if startsLine, position < range.upperBound || lineStartAtEnd {
                let offset = frame.text.count + position - range.lowerBound
                if frame.lineStarts.last != offset { frame.lineStarts.append(offset) }
            }
            position += 1
        }
        frame.text.append(contentsOf: source[range])
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

    /// Text of the source quoted in a message: at most 40 characters, so a runaway tag cannot
    /// make a message as long as the template.
    func shown(_ range: Range<Int>) -> String {
        let full = String(decoding: source[range.lowerBound ..< min(range.upperBound, range.lowerBound + 200)], as: UTF8.self)
        return full.count > 40 || range.count > 200 ? String(full.prefix(40)) + "…" : full
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
