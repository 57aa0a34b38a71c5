import Mustache
import Testing
import TestSupport

/// Deep and large templates and data render when legal, and rendering stops with a typed error at
/// each limit instead of exhausting the stack, the memory or the time.
@Suite struct DeepStructureTests {
    /// `{"child": {"child": … {"name": "leaf", "child": null}}}`, `depth` objects above the leaf.
    /// The leaf's null child matters: a name missing from the innermost context resolves in the
    /// outer ones, so without it `{{#child}}` at the leaf would find its parent's child again.
    static func chain(_ depth: Int) -> MustacheValue {
        var value: MustacheValue = ["name": "leaf", "child": nil]
        for _ in 0 ..< depth { value = ["child": value] }
        return value
    }

    /// `depth` nested objects numbered from `depth` (outermost) down to 1, which has no child.
    static func numbered(_ depth: Int) -> MustacheValue {
        var value: MustacheValue = ["level": 1, "child": nil]
        for level in stride(from: 2, through: depth, by: 1) { value = ["level": .int(level), "child": value] }
        return value
    }

    @Test func sectionsNestedToTheLimitRenderDeepData() throws {
        let depth = MustacheLimits().maximumSectionNesting
        let source = String(repeating: "{{#child}}", count: depth) + "{{name}}" + String(repeating: "{{/child}}", count: depth)
        let library = try MustacheLibrary(templates: ["deep": source])
        #expect(try library.render("deep", Self.chain(depth)) == "leaf")
        // One level short: the innermost section finds no child and hides.
        #expect(try library.render("deep", Self.chain(depth - 1)) == "")
        #expect(loadError(["deeper": "{{#a}}" + source + "{{/a}}"])?.kind == .nestingTooDeep)
    }

    @Test func aDeepDottedNameResolves() throws {
        let name = Array(repeating: "child", count: 500).joined(separator: ".") + ".name"
        #expect(try renderTemplate("{{\(name)}}", Self.chain(500)) == "leaf")
        #expect(try renderTemplate("[{{\(name)}}]", Self.chain(499)) == "[]")
    }

    @Test func recursivePartialsRenderToThePartialDepthLimit() throws {
        let limit = MustacheLimits().maximumPartialDepth
        let library = try MustacheLibrary(templates: ["page": "{{>node}}", "node": "{{level}}{{#child}}({{>node}}){{/child}}"])
        // The page includes the outermost level; each level below it is one partial deeper.
        let expected = (1 ... limit).reversed().map(String.init).joined(separator: "(") + String(repeating: ")", count: limit - 1)
        #expect(try library.render("page", Self.numbered(limit)) == expected)
        let error = try #require(renderError(library, "page", Self.numbered(limit + 1)))
        #expect(error.kind == .partialTooDeep)
        #expect(error.path == "node")
        #expect(error.tag == "{{> node}}")
        #expect(error.description == "node line 1: {{> node}} includes partials more than \(limit) deep; the partials recurse on data that nests too deeply, so flatten the data or stop the recursion sooner")
    }

    @Test func renderDepthCountsSectionsAndPartialsTogether() throws {
        let limits = MustacheLimits(maximumRenderDepth: 12)
        let library = try MustacheLibrary(templates: ["node": "{{#child}}{{#child}}{{>node}}{{/child}}{{/child}}", "page": "{{>node}}"], limits: limits)
        // Each level of the partial is three deep (two sections and the partial itself).
        #expect(try library.render("page", Self.chain(6)) == "")
        let error = try #require(renderError(library, "page", Self.chain(8)))
        #expect(error.kind == .renderTooDeep)
        #expect(error.reason.contains("more than 12 deep while rendering"))
    }

    @Test func theDefaultLimitsKeepTheStackSafeAtTheirDeepest() throws {
        // Partials to their depth limit, each nesting sections, up to the overall render depth:
        // the deepest the renderer can go with default limits, on a test thread's stack.
        let limits = MustacheLimits()
        let sections = limits.maximumRenderDepth / limits.maximumPartialDepth - 1
        let source = String(repeating: "{{#child}}", count: sections) + "{{>node}}" + String(repeating: "{{/child}}", count: sections)
        let library = try MustacheLibrary(templates: ["node": source])
        let data = Self.chain(limits.maximumRenderDepth)
        let error = try #require(renderError(library, "node", data))
        #expect(error.kind == .partialTooDeep || error.kind == .renderTooDeep)
    }

    @Test func theDeepestTemplatesAndRenderingFitInHalfAServerWorkersStack() throws {
        // Pages are rendered on event-loop and pool threads of 1 MiB; this build is the debug one.
        let limits = MustacheLimits()
        let outcomes = SmallStack.run { () -> [String] in
            var outcomes: [String] = []
            let depth = limits.maximumSectionNesting
            let nested = String(repeating: "{{#child}}", count: depth) + "{{name}}" + String(repeating: "{{/child}}", count: depth)
            do throws(MustacheError) { outcomes.append(try MustacheLibrary(templates: ["deep": nested]).render("deep", Self.chain(depth))) } catch {
                outcomes.append("\(error.kind)")
            }
            let sections = limits.maximumRenderDepth / limits.maximumPartialDepth - 1
            let source = String(repeating: "{{#child}}", count: sections) + "{{>node}}" + String(repeating: "{{/child}}", count: sections)
            do throws(MustacheError) { outcomes.append(try MustacheLibrary(templates: ["node": source]).render("node", Self.chain(limits.maximumRenderDepth))) } catch {
                outcomes.append("\(error.kind)")
            }
            return outcomes
        }
        #expect(outcomes.first == "leaf")
        #expect(outcomes.last == "partialTooDeep" || outcomes.last == "renderTooDeep", "\(outcomes)")
    }

    @Test func longListsRender() throws {
        let rows: [MustacheValue] = (0 ..< 100_000).map { ["n": .int($0)] }
        let output = try renderTemplate("{{#rows}}{{n}},{{/rows}}", ["rows": .list(rows)])
        let expected = (0 ..< 100_000).map { "\($0)," }.joined()
        #expect(output == expected)
        #expect(output.hasPrefix("0,1,2,") && output.hasSuffix("99998,99999,"))
    }

    @Test func largeTemplatesWithManyTagsOnOneLineParse() throws {
        let tags = String(repeating: "{{a}}{{! c }}{{#b}}x{{/b}}", count: 50_000)
        let output = try renderTemplate(tags, ["a": "1", "b": true])
        #expect(output == String(repeating: "1x", count: 50_000))
        let lines = String(repeating: "{{#b}}\n  text {{a}}\n{{/b}}\n", count: 20_000)
        #expect(try renderTemplate(lines, ["a": "1", "b": true]) == String(repeating: "  text 1\n", count: 20_000))
    }

    @Test func outputBeyondTheLimitIsRefusedAndTheBufferLeftAsItWas() throws {
        let library = try MustacheLibrary(templates: ["page": "{{#rows}}{{text}}{{/rows}}"], limits: MustacheLimits(maximumOutputBytes: 1000))
        let rows = MustacheValue.list(Array(repeating: ["text": "0123456789"], count: 100))
        #expect(try library.render("page", rows.asRows).count == 1000)
        var buffer = Array("kept".utf8)
        var thrown: MustacheError?
        do {
            try library.render("page", MustacheValue.list(Array(repeating: ["text": "0123456789"], count: 101)).asRows, appendingTo: &buffer)
        } catch {
            thrown = error
        }
        #expect(thrown?.kind == .outputTooLarge)
        #expect(thrown?.description == "page: rendering went past 1000 bytes or 5000000 steps; the data is too large for one page, so split it into pages or raise the MustacheLimits")
        #expect(buffer == Array("kept".utf8))
    }

    @Test func loopsInsideLoopsStopAtTheStepLimit() throws {
        // 2^40 iterations: without the step budget this would run for days.
        let source = String(repeating: "{{#l}}", count: 40) + "x" + String(repeating: "{{/l}}", count: 40)
        let library = try MustacheLibrary(templates: ["page": source], limits: MustacheLimits(maximumRenderSteps: 100_000))
        let error = try #require(renderError(library, "page", ["l": [1, 2]]))
        #expect(error.kind == .outputTooLarge)
        #expect(error.tag == "{{#l}}")
        #expect(error.reason.contains("100000 steps at {{#l}}"))
    }
}

extension MustacheValue {
    /// This value as the `rows` field of an object.
    var asRows: MustacheValue { ["rows": self] }
}
