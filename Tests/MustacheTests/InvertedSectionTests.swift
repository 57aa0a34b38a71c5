import Mustache
import Testing

/// `{{^name}}…{{/name}}`: shown exactly when the section would be hidden.
@Suite struct InvertedSectionTests {
    static let cases: [RenderCase] = [
        RenderCase(name: "false shows the body", template: "[{{^f}}shown{{/f}}]", data: ["f": false], expected: "[shown]"),
        RenderCase(name: "true hides the body", template: "[{{^t}}hidden{{/t}}]", data: ["t": true], expected: "[]"),
        RenderCase(name: "null shows the body", template: "[{{^n}}shown{{/n}}]", data: ["n": nil], expected: "[shown]"),
        RenderCase(name: "a missing name shows the body", template: "[{{^absent}}shown{{/absent}}]", expected: "[shown]"),
        RenderCase(name: "an empty list shows the body", template: "[{{^l}}none{{/l}}]", data: ["l": []], expected: "[none]"),
        RenderCase(name: "a list hides the body", template: "[{{^l}}none{{/l}}]", data: ["l": [1]], expected: "[]"),
        RenderCase(name: "an object hides the body", template: "[{{^o}}none{{/o}}]", data: ["o": [:]], expected: "[]"),
        RenderCase(name: "a string hides the body, even empty", template: "[{{^s}}none{{/s}}]", data: ["s": ""], expected: "[]"),
        RenderCase(name: "the context is unchanged inside", template: "{{^f}}{{x}}{{/f}}", data: ["f": false, "x": "a"], expected: "a"),
        RenderCase(name: "a false dotted name shows", template: "{{^a.b.c}}no{{/a.b.c}}", data: ["a": ["b": ["c": false]]], expected: "no"),
        RenderCase(name: "a broken dotted name shows", template: "{{^a.x.c}}no{{/a.x.c}}", data: ["a": ["b": 1]], expected: "no"),
        RenderCase(name: "a section and its inverse cover both cases (empty)", template: "{{#l}}{{.}}{{/l}}{{^l}}none{{/l}}", data: ["l": []], expected: "none"),
        RenderCase(name: "a section and its inverse cover both cases (full)", template: "{{#l}}{{.}}{{/l}}{{^l}}none{{/l}}", data: ["l": [1, 2]], expected: "12"),
        RenderCase(name: "inverted sections nest", template: "{{^a}}1{{^b}}2{{/b}}{{/a}}", data: ["a": false, "b": false], expected: "12"),

        // Standalone lines.
        RenderCase(name: "whitespace around inline inverted tags is kept", template: " | {{^f}}\t|\t{{/f}} | \n", data: ["f": false], expected: " | \t|\t | \n"),
        RenderCase(name: "inverted tags alone on their lines vanish with them", template: "| A\n{{^f}}\n| B\n{{/f}}\n| C\n", data: ["f": false],
                   expected: "| A\n| B\n| C\n"),
        RenderCase(name: "indented inverted tags alone on their lines vanish", template: "| A\n  {{^f}}\n| B\n  {{/f}}\n| C\n", data: ["f": false],
                   expected: "| A\n| B\n| C\n"),
        RenderCase(name: "CRLF ends a standalone inverted line", template: "|\r\n{{^f}}\r\n{{/f}}\r\n|", data: ["f": false], expected: "|\r\n|"),
        RenderCase(name: "a standalone inverted tag may start the template", template: "  {{^f}}\n^{{/f}}\n/", data: ["f": false], expected: "^\n/"),
        RenderCase(name: "a standalone inverted tag may end the template", template: "^{{^f}}\n/\n  {{/f}}", data: ["f": false], expected: "^\n/\n"),
    ]

    @Test(arguments: cases)
    func rendersAsTheRulesSay(_ example: RenderCase) throws {
        #expect(try example.render() == example.expected)
    }
}
