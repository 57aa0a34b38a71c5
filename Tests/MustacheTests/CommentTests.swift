import Mustache
import Testing

/// `{{! … }}`: comments print nothing, and alone on their line(s) they take the line with them.
@Suite struct CommentTests {
    static let cases: [RenderCase] = [
        RenderCase(name: "an inline comment prints nothing", template: "12345{{! gone }}67890", expected: "1234567890"),
        RenderCase(name: "a comment may span lines", template: "12345{{!\n  gone\n  }}67890", expected: "1234567890"),
        RenderCase(name: "a comment alone on its line vanishes with it", template: "Begin.\n{{! note }}\nEnd.\n", expected: "Begin.\nEnd.\n"),
        RenderCase(name: "an indented standalone comment vanishes", template: "Begin.\n  \t{{! note }}\nEnd.\n", expected: "Begin.\nEnd.\n"),
        RenderCase(name: "CRLF ends a standalone comment line", template: "|\r\n{{! x }}\r\n|", expected: "|\r\n|"),
        RenderCase(name: "a standalone comment may start the template", template: "  {{! x }}\n!", expected: "!"),
        RenderCase(name: "a standalone comment may end the template", template: "!\n  {{! x }}", expected: "!\n"),
        RenderCase(name: "a multi-line comment alone on its lines vanishes", template: "Begin.\n{{!\nline one\nline two\n}}\nEnd.\n", expected: "Begin.\nEnd.\n"),
        RenderCase(name: "an indented multi-line comment vanishes", template: "Begin.\n  {{!\n    line\n  }}\nEnd.\n", expected: "Begin.\nEnd.\n"),
        RenderCase(name: "a comment after text keeps the line", template: "  12 {{! 34 }}\n", expected: "  12 \n"),
        RenderCase(name: "whitespace around a comment is kept", template: "12345 {{! Comment }} 67890", expected: "12345  67890"),
        RenderCase(name: "a comment may hold braces and sigils", template: "a{{! x {y} #z /w > ^ }}b", expected: "ab"),
        RenderCase(name: "a comment may hold an opening tag", template: "a{{! {{#open }}b", expected: "ab"),
        RenderCase(name: "a comment ends at the first closing braces", template: "a{{! one }} two }}b", expected: "a two }}b"),
        RenderCase(name: "text on both sides of a comment joins", template: "{{#l}}a{{!c}}b{{/l}}", data: ["l": [1, 2]], expected: "abab"),
    ]

    @Test(arguments: cases)
    func rendersAsTheRulesSay(_ example: RenderCase) throws {
        #expect(try example.render() == example.expected)
    }
}
