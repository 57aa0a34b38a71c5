// Fuzzing only: compiled into the Mustache module by Tests/Fuzz/fuzz.sh, never by SwiftPM.
import AppleFormats

/// The Mustache targets by name.
public enum MustacheFuzz {
    /// Every target of this module.
    public static let targets: [String: FuzzTarget] = ["mustache": parseAndRender]

    /// Small limits keep each input fast: lists inside lists multiply the work, and the budget
    /// must stop that long before libFuzzer's timeout.
    static let limits = MustacheLimits(maximumTemplateBytes: 1 << 16, maximumSectionNesting: 40, maximumPartialDepth: 20,
                                       maximumRenderDepth: 100, maximumOutputBytes: 1 << 20, maximumRenderSteps: 200_000)

    /// The data every template renders: every kind of value, HTML to escape, nesting, lists of
    /// every kind, and names the dictionary spells (`a`, `list`, `obj.b`, …).
    static let data: MustacheValue = [
        "a": "A<&>\"'", "b": true, "c": 3, "f": false, "n": nil, "e": "", "z": 0,
        "list": [1, "two", ["a": "inner", "list": []], [], true, nil],
        "obj": ["a": 1, "b": ["a": false, "c": "deep"], "list": ["x", "y"]],
        "rows": [["a": "r1", "b": ["a": "s1"]], ["a": "r2", "b": false]],
        "html": "<script>alert('x')</script>",
    ]

    /// One input is up to four templates separated by NUL bytes: `main`, then partials `p1`,
    /// `p2` and `p3`. Each must compile or throw an error naming it and a line inside it; the
    /// library must load or name the broken partial tag; `main` must render the same twice, or
    /// throw a render-time error, leaving an appended-to buffer as it was.
    static func parseAndRender(_ bytes: UnsafeRawBufferPointer) {
        let pieces = bytes.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false).map(Array.init)
        var templates: [MustacheTemplate] = []
        for (index, piece) in pieces.enumerated() {
            let name = index == 0 ? "main" : "p\(index)"
            do {
                templates.append(try MustacheTemplate(name: name, bytes: piece, limits: limits))
            } catch {
                checkLocated(error, in: piece, name: name)
                return
            }
        }
        let library: MustacheLibrary
        do {
            library = try MustacheLibrary(templates, limits: limits)
        } catch {
            fuzzCheck(error.kind == .unknownPartial || error.kind == .partialCycle, "loading failed with \(error.kind): \(error)")
            let source = pieces[templates.firstIndex { $0.path == error.path } ?? 0]
            checkLocated(error, in: source, name: error.path ?? "?")
            return
        }
        var buffer: [UInt8] = [0x58]
        do {
            try library.render("main", data, appendingTo: &buffer)
            let again = try library.renderBytes("main", data)
            fuzzCheck(Array(buffer.dropFirst()) == again, "rendering twice gave different bytes")
            if !pieces[0].contains(0x7b) {
                fuzzCheck(again == pieces[0], "text without braces did not render as itself")
            }
        } catch {
            let renderKinds: [MustacheError.Kind] = [.notPrintable, .partialTooDeep, .renderTooDeep, .outputTooLarge]
            fuzzCheck(renderKinds.contains(error.kind), "rendering failed with \(error.kind): \(error)")
            fuzzCheck(buffer == [0x58], "a failed render changed the caller's buffer")
            fuzzCheck(error.path != nil, "a render error names no template: \(error)")
        }
    }

    /// A load error must name the template and, unless it concerns the whole file, a line in it.
    static func checkLocated(_ error: MustacheError, in source: [UInt8], name: String) {
        fuzzCheck(error.path == name, "error names \(error.path ?? "nil") instead of \(name): \(error)")
        fuzzCheck(error.description.hasPrefix(name), "message does not start with the file: \(error)")
        switch error.kind {
        case .invalidEncoding, .templateTooLarge:
            fuzzCheck(error.line == nil, "a whole-file error has a line: \(error)")
        default:
            let lines = source.reduce(1) { $1 == 0x0a ? $0 + 1 : $0 }
            guard let line = error.line else { return fuzzCheck(false, "no line in \(error)") }
            fuzzCheck((1 ... lines).contains(line), "line \(line) outside 1...\(lines): \(error)")
        }
    }
}
