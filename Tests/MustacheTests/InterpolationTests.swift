import Mustache
import Testing

/// `{{name}}`, `{{{name}}}` and `{{&name}}`: cases written after the spec's interpolation rules.
@Suite struct InterpolationTests {
    static let cases: [RenderCase] = [
        RenderCase(name: "text without tags is copied exactly", template: "Plain text,\n\twith \"quotes\" & <angles>.\r\n", expected: "Plain text,\n\twith \"quotes\" & <angles>.\r\n"),
        RenderCase(name: "a string is inserted", template: "Welcome, {{who}}.", data: ["who": "Ann"], expected: "Welcome, Ann."),
        RenderCase(name: "a value is not parsed as a template again", template: "{{shown}} / {{who}}", data: ["shown": "{{who}}", "who": "Ann"], expected: "{{who}} / Ann"),
        RenderCase(name: "double braces escape HTML", template: "{{html}}", data: ["html": "<b>\"Tom\" & 'Jerry'</b>"],
                   expected: "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;"),
        RenderCase(name: "triple braces print raw", template: "{{{html}}}", data: ["html": "<b>\"Tom\" & 'Jerry'</b>"], expected: "<b>\"Tom\" & 'Jerry'</b>"),
        RenderCase(name: "an ampersand prints raw", template: "{{&html}}", data: ["html": "<b>\"Tom\" & 'Jerry'</b>"], expected: "<b>\"Tom\" & 'Jerry'</b>"),
        RenderCase(name: "integers print in decimal", template: "{{n}} and {{negative}}", data: ["n": 1_048_576, "negative": -42], expected: "1048576 and -42"),
        RenderCase(name: "integers print the same raw", template: "{{{n}}} {{&n}}", data: ["n": 7], expected: "7 7"),
        RenderCase(name: "booleans print as words", template: "{{yes}}/{{no}}", data: ["yes": true, "no": false], expected: "true/false"),
        RenderCase(name: "null prints nothing", template: "[{{nothing}}]", data: ["nothing": nil], expected: "[]"),
        RenderCase(name: "null prints nothing raw", template: "[{{{nothing}}}][{{&nothing}}]", data: ["nothing": nil], expected: "[][]"),
        RenderCase(name: "a missing name prints nothing", template: "[{{absent}}]", expected: "[]"),
        RenderCase(name: "a missing name prints nothing raw", template: "[{{{absent}}}][{{&absent}}]", expected: "[][]"),
        RenderCase(name: "unicode passes through", template: "{{w}} ✓ {{{w}}}", data: ["w": "Zoë 日本 🎉"], expected: "Zoë 日本 🎉 ✓ Zoë 日本 🎉"),
        RenderCase(name: "an empty string prints nothing", template: "<{{e}}>", data: ["e": ""], expected: "<>"),

        // Dotted names.
        RenderCase(name: "dotted names reach into objects", template: "{{user.name}} is {{user.age}}", data: ["user": ["name": "Bo", "age": 30]], expected: "Bo is 30"),
        RenderCase(name: "dotted names escape like others", template: "{{a.b}} {{{a.b}}} {{&a.b}}", data: ["a": ["b": "<&>"]], expected: "&lt;&amp;&gt; <&> <&>"),
        RenderCase(name: "dotted names go any depth", template: "{{a.b.c.d.e.f}}", data: ["a": ["b": ["c": ["d": ["e": ["f": "deep"]]]]]], expected: "deep"),
        RenderCase(name: "a broken chain prints nothing", template: "[{{a.missing.c}}]", data: ["a": ["b": 1]], expected: "[]"),
        RenderCase(name: "a chain through a non-object prints nothing", template: "[{{a.b.c}}]", data: ["a": ["b": "text"]], expected: "[]"),
        RenderCase(name: "a broken chain does not fall back to outer contexts", template: "{{#a}}[{{b.c}}]{{/a}}",
                   data: ["a": ["b": [:]], "b": ["c": "outer"]], expected: "[]"),
        RenderCase(name: "the first part of a dotted name resolves through the context stack", template: "{{#inner}}{{outer.x}}{{/inner}}",
                   data: ["inner": ["y": 1], "outer": ["x": "found"]], expected: "found"),
        RenderCase(name: "a dotted name is never one key with a dot in it", template: "[{{a.b}}]", data: ["a.b": "wrong"], expected: "[]"),

        // The implicit iterator.
        RenderCase(name: "a dot prints the current context", template: "Hi {{.}}!", data: "there", expected: "Hi there!"),
        RenderCase(name: "a dot escapes", template: "{{.}}|{{{.}}}|{{&.}}", data: "a<b", expected: "a&lt;b|a<b|a<b"),
        RenderCase(name: "a dot prints an integer", template: "{{.}}", data: 12, expected: "12"),

        // Whitespace.
        RenderCase(name: "spaces around the name are allowed", template: "|{{ a }}|{{{ a }}}|{{& a }}|", data: ["a": "x"], expected: "|x|x|x|"),
        RenderCase(name: "line breaks around the name are allowed", template: "{{\n a \n}}", data: ["a": "x"], expected: "x"),
        RenderCase(name: "whitespace around a tag is kept", template: " | {{a}} | ", data: ["a": "x"], expected: " | x | "),
        RenderCase(name: "an interpolation alone on its line keeps its line", template: "  {{a}}\n", data: ["a": "x"], expected: "  x\n"),
        RenderCase(name: "a raw interpolation alone on its line keeps its line", template: "  {{{a}}}\n{{&a}}\n", data: ["a": "x"], expected: "  x\nx\n"),
        RenderCase(name: "stray closing braces are text", template: "a }} b }}} c", expected: "a }} b }}} c"),
        RenderCase(name: "a single brace is text", template: "{a} {{a}}", data: ["a": "x"], expected: "{a} x"),
        RenderCase(name: "a fourth closing brace after a triple is text", template: "{{{a}}}}", data: ["a": "x"], expected: "x}"),
    ]

    @Test(arguments: cases)
    func rendersAsTheRulesSay(_ example: RenderCase) throws {
        #expect(try example.render() == example.expected)
    }

    @Test func eachOfTheFiveHTMLCharactersIsEscapedAlone() throws {
        let entities: [(String, String)] = [("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"), ("'", "&#39;")]
        for (character, entity) in entities {
            #expect(try renderTemplate("{{c}}", ["c": .string(character)]) == entity)
            #expect(try renderTemplate("{{c}}", ["c": .string("x\(character)y\(character)")]) == "x\(entity)y\(entity)")
            #expect(try renderTemplate("{{{c}}}", ["c": .string(character)]) == character)
        }
    }

    @Test func nothingElseIsEscaped() throws {
        var everything = ""
        for scalar in (0x01 ... 0x7e).compactMap(Unicode.Scalar.init) where !"&<>\"'".unicodeScalars.contains(scalar) {
            everything.unicodeScalars.append(scalar)
        }
        everything += "é€😀"
        #expect(try renderTemplate("{{s}}", ["s": .string(everything)]) == everything)
    }

    @Test func longValuesEscapeEveryOccurrence() throws {
        let value = String(repeating: "ab<cd&", count: 10_000)
        let expected = String(repeating: "ab&lt;cd&amp;", count: 10_000)
        #expect(try renderTemplate("{{v}}", ["v": .string(value)]) == expected)
    }
}
