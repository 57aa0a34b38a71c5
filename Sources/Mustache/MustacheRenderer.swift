/// One rendering: walks compiled nodes with a context stack and appends to one byte buffer.
struct MustacheRenderer {
    let templates: [String: MustacheTemplate]
    let limits: MustacheLimits
    var output: [UInt8]
    /// Where this rendering's bytes begin in `output` (a caller may append to a buffer in use).
    let outputStart: Int
    /// The context stack: names resolve from the innermost (last) context outwards.
    var contexts: [MustacheValue]
    var depth = 0
    var partialDepth = 0
    var steps = 0

    mutating func render(_ nodes: [MustacheNode], path: String, indentation: [UInt8]) throws(MustacheError) {
        steps += nodes.count
        for node in nodes {
            switch node {
            case let .literal(literal):
                append(literal, indentation: indentation)
            case let .variable(reference):
                try print(resolve(reference), reference: reference, path: path)
            case let .section(section):
                let reference = section.reference, body = section.body
                let value = resolve(reference)
                if section.inverted {
                    guard !value.isTruthy else { continue }
                    try enter(reference.tag, line: reference.line, path: path)
                    try render(body, path: path, indentation: indentation)
                    depth -= 1
                } else if value.isTruthy {
                    try enter(reference.tag, line: reference.line, path: path)
                    if case let .list(elements) = value {
                        for element in elements {
                            try checkBudget(reference.tag, line: reference.line, path: path)
                            contexts.append(element)
                            try render(body, path: path, indentation: indentation)
                            contexts.removeLast()
                        }
                    } else {
                        contexts.append(value)
                        try render(body, path: path, indentation: indentation)
                        contexts.removeLast()
                    }
                    depth -= 1
                }
            case let .partial(call):
                try include(call, path: path, indentation: indentation)
            }
        }
    }

    mutating func include(_ call: MustacheNode.PartialCall, path: String, indentation: [UInt8]) throws(MustacheError) {
        guard let template = templates[call.name] else {
            // The library checks every partial when it loads, so this is only reached by a
            // library built around that check; refuse rather than render a page with a hole.
            throw MustacheError(.unknownPartial, path: path, line: call.line, tag: call.tag,
                                reason: "unknown partial \(call.tag); add a template named \(call.name) or correct the name")
        }
        partialDepth += 1
        guard partialDepth <= limits.maximumPartialDepth else {
            throw MustacheError(.partialTooDeep, path: path, line: call.line, tag: call.tag,
                                reason: "\(call.tag) includes partials more than \(limits.maximumPartialDepth) deep; the partials recurse on data that nests too deeply, so flatten the data or stop the recursion sooner")
        }
        try enter(call.tag, line: call.line, path: path)
        // A partial standing alone on its line indents every line of it by that line's
        // indentation (added to any it is already indented by); one inside a line is not indented.
        let inner = call.indentation.map { indentation + $0 } ?? []
        try render(template.nodes, path: template.path, indentation: inner)
        depth -= 1
        partialDepth -= 1
    }

    /// Counts one more level of sections and partials, refusing to go deeper than the limit.
    mutating func enter(_ tag: String, line: Int, path: String) throws(MustacheError) {
        depth += 1
        guard depth <= limits.maximumRenderDepth else {
            throw MustacheError(.renderTooDeep, path: path, line: line, tag: tag,
                                reason: "\(tag) nests sections and partials more than \(limits.maximumRenderDepth) deep while rendering; flatten the data or the templates")
        }
        try checkBudget(tag, line: line, path: path)
    }

    /// Checked on every section entry, list element and partial, and once at the end (with no
    /// tag): between two checks the work is bounded by one template's nodes, so a template cannot
    /// loop past the limits for long.
    func checkBudget(_ tag: String?, line: Int?, path: String) throws(MustacheError) {
        guard output.count - outputStart <= limits.maximumOutputBytes, steps <= limits.maximumRenderSteps else {
            let place = tag.map { " at \($0)" } ?? ""
            throw MustacheError(.outputTooLarge, path: path, line: line, tag: tag,
                                reason: "rendering went past \(limits.maximumOutputBytes) bytes or \(limits.maximumRenderSteps) steps\(place); the data is too large for one page, so split it into pages or raise the MustacheLimits")
        }
    }

    func resolve(_ reference: MustacheNode.Reference) -> MustacheValue {
        guard let first = reference.parts.first else { return contexts.last ?? .null }
        var found: MustacheValue?
        for context in contexts.reversed() {
            if case let .object(fields) = context, let value = fields[first] {
                found = value
                break
            }
        }
        // Once the first part resolves, the others resolve only inside it (never in outer contexts).
        guard var value = found else { return .null }
        for part in reference.parts.dropFirst() {
            guard case let .object(fields) = value, let next = fields[part] else { return .null }
            value = next
        }
        return value
    }

    mutating func append(_ literal: MustacheNode.Literal, indentation: [UInt8]) {
        guard !indentation.isEmpty, !literal.lineStarts.isEmpty else {
            output.append(contentsOf: literal.bytes)
            return
        }
        var from = 0
        for start in literal.lineStarts {
            output.append(contentsOf: literal.bytes[from ..< start])
            output.append(contentsOf: indentation)
            from = start
        }
        output.append(contentsOf: literal.bytes[from...])
    }

    mutating func print(_ value: MustacheValue, reference: MustacheNode.Reference, path: String) throws(MustacheError) {
        switch value {
        case let .string(text):
            if reference.escaped { appendEscaped(text) } else { output.append(contentsOf: text.utf8) }
        case let .int(number):
            output.append(contentsOf: String(number).utf8)
        case let .bool(flag):
            output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .null:
            break
        case .list, .object:
            let name = reference.parts.isEmpty ? "." : reference.parts.joined(separator: ".")
            let fix = if case .list = value {
                "open it as a section ({{#\(name)}}…{{/\(name)}}) to print its elements"
            } else {
                "print one of its fields, such as {{\(name == "." ? "" : name + ".")field}}"
            }
            throw MustacheError(.notPrintable, path: path, line: reference.line, tag: reference.tag,
                                reason: "\(reference.tag) is \(value.kindDescription), which has no text form; \(fix)")
        }
    }

    /// Appends `text` with `& < > " '` replaced by entities, copying the runs between them whole.
    mutating func appendEscaped(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for index in bytes.indices {
                let entity: [UInt8]
                switch bytes[index] {
                case .ampersand: entity = Self.ampersandEntity
                case .lessThan: entity = Self.lessThanEntity
                case .greaterThan: entity = Self.greaterThanEntity
                case .doubleQuote: entity = Self.quoteEntity
                case .singleQuote: entity = Self.apostropheEntity
                default: continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart ..< index]))
                output.append(contentsOf: entity)
                runStart = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
    }

    static let ampersandEntity = Array("&amp;".utf8)
    static let lessThanEntity = Array("&lt;".utf8)
    static let greaterThanEntity = Array("&gt;".utf8)
    static let quoteEntity = Array("&quot;".utf8)
    static let apostropheEntity = Array("&#39;".utf8)
}
