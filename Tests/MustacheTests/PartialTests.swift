import Mustache
import Testing

/// `{{> name}}`: partials render in the caller's context, and one alone on its line indents each of
/// its lines; cases written after the spec's partial rules.
@Suite struct PartialTests {
    static let cases: [RenderCase] = [
        RenderCase(name: "a partial is included", template: "\"{{>text}}\"", partials: ["text": "from partial"], expected: "\"from partial\""),
        RenderCase(name: "a partial sees the caller's context", template: "\"{{>p}}\"", data: ["text": "content"], partials: ["p": "*{{text}}*"],
                   expected: "\"*content*\""),
        RenderCase(name: "a partial inside a section sees the section's context", template: "{{#people}}{{>person}},{{/people}}",
                   data: ["people": [["name": "Ann"], ["name": "Bo"]], "suffix": "!"], partials: ["person": "{{name}}{{suffix}}"],
                   expected: "Ann!,Bo!,"),
        RenderCase(name: "a partial may include itself on data that ends", template: "{{>node}}",
                   data: ["content": "X", "nodes": [["content": "Y", "nodes": [["content": "Z", "nodes": []]]], ["content": "W", "nodes": []]]],
                   partials: ["node": "{{content}}<{{#nodes}}{{>node}}{{/nodes}}>"], expected: "X<Y<Z<>>W<>>"),
        RenderCase(name: "partials include partials", template: "{{>a}}", data: ["x": "1", "y": "2"], partials: ["a": "*{{x}} {{>b}}*", "b": "!{{y}}!"],
                   expected: "*1 !2!*"),
        RenderCase(name: "whitespace around an inline partial is kept", template: "| {{>p}} |", partials: ["p": "\t|\t"], expected: "| \t|\t |"),
        RenderCase(name: "an inline partial is not indented", template: "  {{data}}  {{> p}}\n", data: ["data": "|"], partials: ["p": ">\n>"],
                   expected: "  |  >\n>\n"),
        RenderCase(name: "CRLF ends a standalone partial line", template: "|\r\n{{>p}}\r\n|", partials: ["p": ">"], expected: "|\r\n>|"),
        RenderCase(name: "a standalone partial may start the template", template: "  {{>p}}\n>", partials: ["p": ">\n>"], expected: "  >\n  >>"),
        RenderCase(name: "a standalone partial may end the template", template: ">\n  {{>p}}", partials: ["p": ">\n>"], expected: ">\n  >\n  >"),
        RenderCase(name: "a standalone partial indents its lines but not its values", template: "\\\n {{>p}}\n/\n", data: ["content": "<\n->"],
                   partials: ["p": "|\n{{{content}}}\n|\n"], expected: "\\\n |\n <\n->\n |\n/\n"),
        RenderCase(name: "a tab indents like spaces", template: "\t{{>p}}\n", partials: ["p": "a\nb\n"], expected: "\ta\n\tb\n"),
        RenderCase(name: "spaces around a partial name are allowed", template: "|{{> p }}|{{>p}}|", partials: ["p": "[]"], expected: "|[]|[]|"),
        RenderCase(name: "indentation adds up through nested standalone partials", template: "<\n  {{>a}}\n>",
                   partials: ["a": "a1\n  {{>b}}\na2\n", "b": "b1\nb2\n"], expected: "<\n  a1\n    b1\n    b2\n  a2\n>"),
        RenderCase(name: "an indented partial's sections indent every iteration", template: "  {{>row}}\n", data: ["items": ["a", "b"]],
                   partials: ["row": "{{#items}}\n- {{.}}\n{{/items}}\n"], expected: "  - a\n  - b\n"),
        RenderCase(name: "an indented partial's inline partials are not indented further", template: "  {{>a}}\n",
                   partials: ["a": "x {{>b}}\n", "b": "1\n2"], expected: "  x 1\n2\n"),
        RenderCase(name: "a standalone partial's line ending is the partial's to give", template: "  {{>p}}\nnext", partials: ["p": "x"], expected: "  xnext"),
        RenderCase(name: "an empty standalone partial leaves no line", template: "a\n  {{>empty}}\nb", partials: ["empty": ""], expected: "a\nb"),
        RenderCase(name: "an indented partial keeps CRLF line endings", template: "  {{>p}}\r\n", partials: ["p": "x\r\ny\r\n"], expected: "  x\r\n  y\r\n"),
        RenderCase(name: "partials may be named like files", template: "{{> parts/footer.html}}", partials: ["parts/footer.html": "<footer>"],
                   expected: "<footer>"),
        RenderCase(name: "a partial's standalone lines vanish when indented", template: " {{>p}}\n", data: ["b": true],
                   partials: ["p": "{{#b}}\nyes\n{{/b}}\n"], expected: " yes\n"),
        RenderCase(name: "a partial starting with a tag is indented before it", template: "  {{>p}}\n", data: ["v": "V"], partials: ["p": "{{v}}\n{{v}}"],
                   expected: "  V\n  V"),
    ]

    @Test(arguments: cases)
    func rendersAsTheRulesSay(_ example: RenderCase) throws {
        #expect(try example.render() == example.expected)
    }
}
