import Foundation
import Mustache
import Testing

/// Damaged templates end in the typed error the damage calls for (or load, when the damage leaves
/// a valid template), and deep but legal templates and data render.
@Suite struct RobustnessTests {
    /// Pages shaped like betactl's: a layout with partials, lists, inverted sections, comments,
    /// raw values, CRLF lines and non-ASCII text.
    static let pages: [String: String] = [
        "tester.html": """
            <!doctype html>
            {{! The tester's private page: their devices and the releases they may install. }}
            <html lang="en">
            <head>{{> head.html}}</head>
            <body>
              <h1>Hello, {{tester.name}} — ✓</h1>
              {{#releases}}
              <section class="release">
                <h2>{{app}} {{version}} ({{build}})</h2>
                {{#notes}}<p>{{notes}}</p>{{/notes}}
                {{^installable}}
                <p class="warning">Your device {{device.name}} is not in this build's profile.</p>
                {{/installable}}
                <a href="{{{installURL}}}">Install</a>
              </section>
              {{/releases}}
              {{^releases}}<p>No builds yet.</p>{{/releases}}
              {{> footer.html}}
            </body>
            </html>

            """,
        "head.html": "<meta charset=\"utf-8\">\r\n<title>{{title}}</title>\r\n",
        "footer.html": "<footer>\n  {{#links}}\n  <a href=\"{{url}}\">{{label}}</a>\n  {{/links}}\n</footer>\n",
    ]

    static let model: MustacheValue = [
        "title": "Builds",
        "tester": ["name": "Zoë <QA>"],
        "releases": [
            ["app": "Demo", "version": "1.2", "build": 42, "notes": "Fixes & more", "installable": true,
             "installURL": "itms-services://?action=download-manifest&url=x"],
            ["app": "Demo", "version": "1.3", "build": 43, "notes": "", "installable": false, "device": ["name": "Ann's iPad"],
             "installURL": "itms-services://?action=download-manifest&url=y"],
        ],
        "links": [["url": "/help", "label": "Help"]],
    ]

    /// The outcome an independent reading of `source` predicts: the error kind, or nil for success.
    static func expectedKind(_ source: [UInt8]) -> MustacheError.Kind? {
        guard let text = String(validating: source, as: UTF8.self) else { return .invalidEncoding }
        var open: [Substring] = []
        var rest = Substring(text)
        while let start = rest.range(of: "{{") {
            guard let end = rest[start.upperBound...].range(of: "}}") else { return .unclosedTag }
            var content = rest[start.upperBound ..< end.lowerBound]
            rest = rest[end.upperBound...]
            if content.hasPrefix("{") {
                guard rest.hasPrefix("}") else { return .unclosedTag }
                rest = rest.dropFirst()
                continue
            }
            content = content.drop { $0 == " " }
            if content.hasPrefix("#") || content.hasPrefix("^") { open.append(content.dropFirst()) }
            if content.hasPrefix("/"), !open.isEmpty { open.removeLast() }
        }
        return open.isEmpty ? nil : .unclosedSection
    }

    @Test func theModelPagesRenderWhole() throws {
        let library = try MustacheLibrary(templates: Self.pages)
        let html = try library.render("tester.html", Self.model)
        #expect(html.contains("<h1>Hello, Zoë &lt;QA&gt; — ✓</h1>"))
        #expect(html.contains("<meta charset=\"utf-8\">\r\n<title>Builds</title>\r\n</head>"))
        #expect(html.contains("<p>Fixes &amp; more</p>"))
        #expect(html.contains("<p class=\"warning\">Your device Ann&#39;s iPad is not in this build's profile.</p>"))
        #expect(html.contains("href=\"itms-services://?action=download-manifest&url=y\""))
        #expect(html.contains("  <footer>\n    <a href=\"/help\">Help</a>\n  </footer>\n</body>"))
        #expect(!html.contains("No builds yet"))
        #expect(!html.contains("{{"))
    }

    @Test func everyTruncationOfARealLookingTemplateLoadsOrGivesThePredictedError() throws {
        let reference = try MustacheLibrary(templates: Self.pages).render("tester.html", Self.model)
        for (name, source) in Self.pages {
            let bytes = Array(source.utf8)
            var sawErrors: Set<MustacheError.Kind> = []
            for length in 0 ... bytes.count {
                let prefix = Array(bytes[..<length])
                var templates = Self.pages
                templates[name] = nil
                var thrown: MustacheError?
                var library: MustacheLibrary?
                do throws(MustacheError) {
                    var compiled = [try MustacheTemplate(name: name, bytes: prefix)]
                    for (other, source) in templates { compiled.append(try MustacheTemplate(name: other, source: source)) }
                    library = try MustacheLibrary(compiled)
                } catch {
                    thrown = error
                }
                let expected = Self.expectedKind(prefix)
                #expect(thrown?.kind == expected, "\(name) cut to \(length) bytes: \(thrown.map(String.init(describing:)) ?? "loaded")")
                if let thrown {
                    sawErrors.insert(thrown.kind)
                    #expect(thrown.path == name)
                    #expect(thrown.kind == .invalidEncoding || thrown.line != nil)
                }
                if let library {
                    // What loads renders with the real model; uncut, it renders the full page.
                    let html = try library.render("tester.html", Self.model)
                    if length == bytes.count { #expect(html == reference) }
                }
            }
            #expect(sawErrors.contains(.unclosedTag), "\(name)")
        }
    }

    @Test func everyByteReplacedByAMustacheCharacterLoadsOrGivesALocatedError() throws {
        let source = try #require(Self.pages["tester.html"])
        let bytes = Array(source.utf8)
        let lineCount = bytes.filter { $0 == 0x0a }.count + 1
        var kinds: Set<MustacheError.Kind> = []
        var loaded = 0
        for index in bytes.indices {
            for replacement in Array("{}#/^!>&=<.\n".utf8) + [0xff] where bytes[index] != replacement {
                var damaged = bytes
                damaged[index] = replacement
                do {
                    _ = try MustacheTemplate(name: "page", bytes: damaged)
                    loaded += 1
                } catch {
                    kinds.insert(error.kind)
                    #expect(error.path == "page")
                    if error.kind == .invalidEncoding {
                        #expect(String(validating: damaged, as: UTF8.self) == nil)
                    } else {
                        let line = try #require(error.line, "\(error)")
                        #expect((1 ... lineCount + 1).contains(line), "\(error)")
                        #expect(error.description.hasPrefix("page line \(line): "))
                    }
                }
            }
        }
        #expect(loaded > 0)
        let expectedKinds: Set<MustacheError.Kind> = [.invalidEncoding, .unclosedTag, .invalidName, .mismatchedClose, .unclosedSection, .setDelimiter, .unsupportedTag]
        #expect(expectedKinds.isSubset(of: kinds), "\(kinds)")
    }

    @Test func randomBytesLoadOrGiveTheTypedError() throws {
        var generator = SplitMix64(seed: 0x6d75_7374_6163_6865)
        var loaded = 0
        for round in 0 ..< 3000 {
            let length = Int(generator.next() % 200)
            // Half the rounds stay ASCII, so they get past the UTF-8 check to the parser.
            let mask: UInt8 = round.isMultiple(of: 2) ? 0x7f : 0xff
            let bytes = (0 ..< length).map { _ in UInt8(truncatingIfNeeded: generator.next()) & mask }
            let isUTF8 = String(validating: bytes, as: UTF8.self) != nil
            let hasTags = zip(bytes, bytes.dropFirst()).contains { $0 == 0x7b && $1 == 0x7b }
            do {
                let template = try MustacheTemplate(name: "random", bytes: bytes)
                loaded += 1
                #expect(isUTF8, "round \(round)")
                if !hasTags {
                    // Text without tags is copied exactly.
                    #expect(try MustacheLibrary([template]).renderBytes("random", [:]) == bytes, "round \(round)")
                }
            } catch {
                if isUTF8 {
                    #expect(hasTags, "round \(round): \(error)")
                    #expect(error.line != nil, "round \(round): \(error)")
                } else {
                    #expect(error.kind == .invalidEncoding, "round \(round)")
                }
            }
        }
        #expect(loaded > 1000)
    }

    @Test func randomTokenSoupLoadsOrGivesALocatedErrorAndRendersOrGivesATypedError() throws {
        let pieces = ["{{", "}}", "{{{", "}}}", "#", "^", "/", "!", ">", "&", "=", ".", "a", "b", "list", "obj", "\n", "\r\n", " ", "\t", "x", "é"]
        let data: MustacheValue = ["a": "A<", "b": true, "list": [1, ["a": "inner"], []], "obj": ["a": 1, "b": ["a": false]]]
        var generator = SplitMix64(seed: 42)
        var outcomes: [String: Int] = [:]
        for round in 0 ..< 5000 {
            let count = Int(generator.next() % 40)
            let source = (0 ..< count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            let lineCount = source.utf8.filter { $0 == 0x0a }.count + 1
            do {
                let library = try MustacheLibrary(templates: ["main": source, "a": "[{{a}}]", "b": "{{#b}}{{>a}}{{/b}}"])
                do {
                    let output = try library.render("main", data)
                    if !source.contains("{{") { #expect(output == source, "round \(round)") }
                    outcomes["rendered", default: 0] += 1
                } catch {
                    // Printing a list or an object is the one render-time mistake soup can make.
                    #expect(error.kind == .notPrintable, "round \(round): \(error)")
                    outcomes["notPrintable", default: 0] += 1
                }
            } catch {
                let line = try #require(error.line, "round \(round): \(error)")
                #expect((1 ... lineCount).contains(line), "round \(round): \(error)")
                outcomes["\(error.kind)", default: 0] += 1
            }
        }
        #expect(outcomes["rendered", default: 0] > 100, "\(outcomes)")
        #expect(outcomes.count > 6, "\(outcomes)")
    }
}

/// A small deterministic generator, so a failing round reproduces.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
