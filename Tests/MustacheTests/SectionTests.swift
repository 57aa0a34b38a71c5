import Mustache
import Testing

/// `{{#name}}…{{/name}}`: truthiness, lists, the context stack and standalone lines, in cases
/// written after the spec's section rules.
@Suite struct SectionTests {
    static let cases: [RenderCase] = [
        RenderCase(name: "true shows the body", template: "[{{#on}}shown{{/on}}]", data: ["on": true], expected: "[shown]"),
        RenderCase(name: "false hides the body", template: "[{{#off}}hidden{{/off}}]", data: ["off": false], expected: "[]"),
        RenderCase(name: "null hides the body", template: "[{{#none}}hidden{{/none}}]", data: ["none": nil], expected: "[]"),
        RenderCase(name: "a missing name hides the body", template: "[{{#absent}}hidden{{/absent}}]", expected: "[]"),
        RenderCase(name: "an empty list hides the body", template: "[{{#items}}hidden{{/items}}]", data: ["items": []], expected: "[]"),
        RenderCase(name: "an empty string shows the body", template: "[{{#s}}shown{{/s}}]", data: ["s": ""], expected: "[shown]"),
        RenderCase(name: "zero shows the body", template: "[{{#n}}{{.}}{{/n}}]", data: ["n": 0], expected: "[0]"),
        RenderCase(name: "an empty object shows the body", template: "[{{#o}}shown{{/o}}]", data: ["o": [:]], expected: "[shown]"),
        RenderCase(name: "an object becomes the context", template: "{{#person}}{{name}} ({{age}}){{/person}}", data: ["person": ["name": "Ann", "age": 41]],
                   expected: "Ann (41)"),
        RenderCase(name: "a list renders once per element", template: "{{#items}}({{n}}){{/items}}", data: ["items": [["n": 1], ["n": 2], ["n": 3]]],
                   expected: "(1)(2)(3)"),
        RenderCase(name: "a list of strings prints with a dot", template: "{{#tags}}<{{.}}>{{/tags}}", data: ["tags": ["a", "b&c"]], expected: "<a><b&amp;c>"),
        RenderCase(name: "a list of lists iterates with a dot section", template: "{{#rows}}[{{#.}}{{.}}{{/.}}]{{/rows}}", data: ["rows": [[1, 2], [3], []]],
                   expected: "[12][3][]"),
        RenderCase(name: "the root can be a list", template: "{{#.}}{{v}},{{/.}}", data: [["v": 1], ["v": 2]], expected: "1,2,"),
        RenderCase(name: "a string becomes the context", template: "{{#name}}{{.}} is {{name}}{{/name}}", data: ["name": "Bo"], expected: "Bo is Bo"),
        RenderCase(name: "true becomes the context", template: "{{#flag}}{{.}}{{/flag}}", data: ["flag": true], expected: "true"),
        RenderCase(name: "inner names shadow outer ones", template: "{{#a}}{{x}}{{/a}} {{x}}", data: ["x": "outer", "a": ["x": "inner"]], expected: "inner outer"),
        RenderCase(name: "outer names are visible inside", template: "{{#a}}{{y}}{{/a}}", data: ["y": "outer", "a": ["x": 1]], expected: "outer"),
        RenderCase(name: "a null field shadows an outer name", template: "{{#a}}[{{x}}]{{/a}}", data: ["x": "outer", "a": ["x": nil]], expected: "[]"),
        RenderCase(name: "names resolve from the innermost context outwards", template:
                    "{{#a}}{{one}}{{#b}}{{one}}{{two}}{{#c}}{{one}}{{two}}{{three}}{{#b}}{{two}}{{/b}}{{/c}}{{/b}}{{/a}}",
                   data: ["a": ["one": 1], "b": ["two": 2], "c": ["three": 3, "b": ["two": "B"]]], expected: "112123B"),
        RenderCase(name: "elements that are not objects leave names to outer contexts", template: "{{#items}}{{sep}}{{.}}{{/items}}",
                   data: ["items": [1, 2], "sep": "-"], expected: "-1-2"),
        RenderCase(name: "lists nest and see outer fields", template: "{{#groups}}{{name}}:{{#members}} {{.}}@{{name}}{{/members}};{{/groups}}",
                   data: ["groups": [["name": "g1", "members": ["x", "y"]], ["name": "g2", "members": ["z"]]]], expected: "g1: x@g1 y@g1;g2: z@g2;"),
        RenderCase(name: "dotted names open sections", template: "{{#a.b.c}}yes{{/a.b.c}}", data: ["a": ["b": ["c": true]]], expected: "yes"),
        RenderCase(name: "a false dotted name hides", template: "[{{#a.b.c}}yes{{/a.b.c}}]", data: ["a": ["b": ["c": false]]], expected: "[]"),
        RenderCase(name: "a broken dotted name hides", template: "[{{#a.x.c}}yes{{/a.x.c}}]", data: ["a": ["b": ["c": true]]], expected: "[]"),
        RenderCase(name: "the same section may repeat", template: "{{#b}}1{{/b}} {{#b}}2{{/b}}", data: ["b": true], expected: "1 2"),
        RenderCase(name: "a section may nest inside one of the same name", template: "{{#a}}<{{#a}}x{{/a}}>{{/a}}", data: ["a": ["a": false]], expected: "<>"),
        RenderCase(name: "spaces around section names are allowed", template: "{{# b }}x{{/ b }}{{^ c }}y{{/ c }}", data: ["b": true], expected: "xy"),

        // Standalone lines.
        RenderCase(name: "whitespace around inline section tags is kept", template: " | {{#b}}\t|\t{{/b}} | \n", data: ["b": true], expected: " | \t|\t | \n"),
        RenderCase(name: "whitespace inside a section is kept", template: " | {{#b}} {{! note }} {{/b}} | \n", data: ["b": true], expected: " |    | \n"),
        RenderCase(name: "section tags with text on their line keep the line", template: " {{#b}}yes{{/b}}\n {{#b}}more{{/b}}\n", data: ["b": true],
                   expected: " yes\n more\n"),
        RenderCase(name: "section tags alone on their lines vanish with them", template: "| A\n{{#b}}\n| B\n{{/b}}\n| C\n", data: ["b": true],
                   expected: "| A\n| B\n| C\n"),
        RenderCase(name: "indented section tags alone on their lines vanish with them", template: "| A\n  {{#b}}\n| B\n\t {{/b}}\n| C\n", data: ["b": true],
                   expected: "| A\n| B\n| C\n"),
        RenderCase(name: "blanks after a standalone tag vanish too", template: "{{#b}}  \t\nx\n{{/b}} \n", data: ["b": true], expected: "x\n"),
        RenderCase(name: "CRLF ends a standalone line", template: "|\r\n{{#b}}\r\n{{/b}}\r\n|", data: ["b": true], expected: "|\r\n|"),
        RenderCase(name: "a standalone tag may start the template", template: "  {{#b}}\n#{{/b}}\n/", data: ["b": true], expected: "#\n/"),
        RenderCase(name: "a standalone tag may end the template", template: "#{{#b}}\n/\n  {{/b}}", data: ["b": true], expected: "#\n/\n"),
        RenderCase(name: "a lone CR does not end a line", template: "{{#b}}\rx{{/b}}", data: ["b": true], expected: "\rx"),
        RenderCase(name: "two tags on one line are not standalone", template: "{{#b}}{{/b}}\nnext", data: ["b": true], expected: "\nnext"),
        RenderCase(name: "text after a tag keeps its line", template: "{{#b}} x\n{{/b}}", data: ["b": true], expected: " x\n"),
        RenderCase(name: "a hidden standalone section leaves no blank line", template: "A\n{{#f}}\nhidden\n{{/f}}\nB\n", data: ["f": false], expected: "A\nB\n"),
        RenderCase(name: "a list between standalone tags renders whole lines", template: "<ul>\n  {{#items}}\n  <li>{{.}}</li>\n  {{/items}}\n</ul>\n",
                   data: ["items": ["a", "b"]], expected: "<ul>\n  <li>a</li>\n  <li>b</li>\n</ul>\n"),
    ]

    @Test(arguments: cases)
    func rendersAsTheRulesSay(_ example: RenderCase) throws {
        #expect(try example.render() == example.expected)
    }
}
