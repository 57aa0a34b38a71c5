import Mustache
import Testing

/// The library: loading from sources and embedded files, rendering by name, buffers, and the
/// values and models it renders.
@Suite struct LibraryTests {
    struct Release: MustacheRepresentable {
        var version: String
        var build: Int
        var notes: String?
        var mustacheValue: MustacheValue { ["version": .init(version), "build": .init(build), "notes": .init(notes)] }
    }

    struct Page: MustacheRepresentable {
        var title: String
        var releases: [Release]
        var isAdmin: Bool
        var mustacheValue: MustacheValue { ["title": .init(title), "releases": .init(releases), "isAdmin": .init(isAdmin)] }
    }

    @Test func aModelRendersThroughItsOwnValue() throws {
        let library = try MustacheLibrary(templates: [
            "page": "<h1>{{title}}</h1>{{#releases}}<p>{{version}} ({{build}}){{#notes}}: {{notes}}{{/notes}}</p>{{/releases}}{{^isAdmin}}!{{/isAdmin}}",
        ])
        let page = Page(title: "A & B", releases: [Release(version: "1.0", build: 7, notes: nil), Release(version: "1.1", build: 8, notes: "<new>")], isAdmin: false)
        #expect(try library.render("page", page) == "<h1>A &amp; B</h1><p>1.0 (7)</p><p>1.1 (8): &lt;new&gt;</p>!")
    }

    @Test func standardTypesConvertAsExpected() {
        #expect("x".mustacheValue == .string("x"))
        #expect("abc".dropFirst().mustacheValue == .string("bc"))
        #expect(5.mustacheValue == .int(5))
        #expect(true.mustacheValue == .bool(true))
        #expect((nil as String?).mustacheValue == .null)
        #expect(Optional("y").mustacheValue == .string("y"))
        #expect([1, 2].mustacheValue == .list([.int(1), .int(2)]))
        #expect(["k": [true]].mustacheValue == .object(["k": .list([.bool(true)])]))
        #expect(MustacheValue(["a", "b"]) == ["a", "b"])
    }

    @Test func literalsBuildValues() {
        let value: MustacheValue = ["s": "text \(1 + 1)", "i": 3, "b": false, "l": [1, "two"], "n": nil, "o": ["k": "v"]]
        #expect(value["s"] == .string("text 2"))
        #expect(value["i"] == .int(3))
        #expect(value["b"] == .bool(false))
        #expect(value["l"] == .list([.int(1), .string("two")]))
        #expect(value["n"] == .null)
        #expect(value["o"]?["k"] == .string("v"))
        #expect(value["missing"] == nil)
        #expect(MustacheValue.string("x")["k"] == nil)
    }

    @Test func truthinessHidesOnlyFalseNullAndEmptyLists() {
        let falsy: [MustacheValue] = [false, nil, []]
        let truthy: [MustacheValue] = [true, "", "x", 0, 1, [0], [:], ["k": false]]
        #expect(falsy.allSatisfy { !$0.isTruthy })
        #expect(truthy.allSatisfy { $0.isTruthy })
    }

    @Test func printingAListOrAnObjectIsATypedError() throws {
        let library = try MustacheLibrary(templates: ["page.html": "a\n{{releases}}", "obj.html": "{{{device}}}", "dot.html": "{{#l}}{{.}}{{/l}}"])
        let list = try #require(renderError(library, "page.html", ["releases": [1]]))
        #expect(list.kind == .notPrintable)
        #expect(list.description == "page.html line 2: {{releases}} is a list, which has no text form; open it as a section ({{#releases}}…{{/releases}}) to print its elements")
        let object = try #require(renderError(library, "obj.html", ["device": ["name": "x"]]))
        #expect(object.description == "obj.html line 1: {{{device}}} is an object, which has no text form; print one of its fields, such as {{device.field}}")
        #expect(renderError(library, "dot.html", ["l": [[1]]])?.kind == .notPrintable)
        // An empty list prints nothing only through a section; printing it is the same mistake.
        #expect(renderError(library, "page.html", ["releases": []])?.kind == .notPrintable)
    }

    @Test func anUnknownTemplateNameIsATypedError() throws {
        let library = try MustacheLibrary(templates: ["a.html": "", "b.html": ""])
        let error = try #require(renderError(library, "c.html", [:]))
        #expect(error.kind == .unknownTemplate)
        #expect(error.path == nil)
        #expect(error.description == "there is no template named c.html; the library holds a.html, b.html")
        #expect(renderError(try MustacheLibrary(templates: [:]), "x", [:])?.description == "there is no template named x; the library holds none")
    }

    @Test func embeddedFilesLoadByTheirPathBelowTheFolder() throws {
        let files: [String: [UInt8]] = [
            "Templates/tester.html": Array("<p>{{> parts/row.html}}</p>".utf8),
            "Templates/parts/row.html": Array("{{name}}".utf8),
            "web/app.css": [0xff, 0xfe],  // not a template: outside the folder, never parsed
        ]
        let library = try MustacheLibrary(files: files, folder: "Templates")
        #expect(library.templateNames == ["parts/row.html", "tester.html"])
        #expect(library.template(named: "tester.html")?.path == "Templates/tester.html")
        #expect(library.template(named: "tester.html")?.partialNames == ["parts/row.html"])
        #expect(try library.render("tester.html", ["name": "Ann"]) == "<p>Ann</p>")
        #expect(try MustacheLibrary(files: files, folder: "Templates/").templateNames == library.templateNames)
    }

    @Test func renderingAppendsToABuffer() throws {
        let library = try MustacheLibrary(templates: ["t": "<{{v}}>"])
        var buffer = Array("HTTP body: ".utf8)
        try library.render("t", ["v": "é"], appendingTo: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "HTTP body: <é>")
        #expect(try library.renderBytes("t", ["v": 1]) == Array("<1>".utf8))
    }

    @Test func aFailedRenderLeavesTheBufferAsItWas() throws {
        let library = try MustacheLibrary(templates: ["t": "long text before the mistake {{list}}"])
        var buffer = Array("kept".utf8)
        #expect(throws: MustacheError.self) { try library.render("t", ["list": [1]], appendingTo: &buffer) }
        #expect(buffer == Array("kept".utf8))
    }

    @Test func partialNamesListEachIncludedTemplateOnce() throws {
        let template = try MustacheTemplate(name: "t", source: "{{>b}}{{#x}}{{>a}}{{>b}}{{/x}}{{^y}}{{> c/d.html }}{{/y}}")
        #expect(template.partialNames == ["a", "b", "c/d.html"])
        #expect(template.name == "t" && template.path == "t")
    }

    @Test func aLibraryRendersTheSameFromManyTasksAtOnce() async throws {
        let library = try MustacheLibrary(templates: ["row": "{{#items}}{{.}};{{/items}}"])
        let outputs = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0 ..< 32 {
                group.addTask { (index, try library.render("row", ["items": .list((0 ... index).map { .int($0) })])) }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        for index in 0 ..< 32 {
            #expect(outputs[index] == (0 ... index).map { "\($0);" }.joined())
        }
    }
}
