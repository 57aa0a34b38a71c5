import Mustache
import Testing

/// Every problem is a typed `MustacheError` naming the file, the line and the tag, with the fix.
@Suite struct ErrorTests {
    /// The error loading one template named `page.html`.
    func pageError(_ source: String, limits: MustacheLimits = MustacheLimits()) -> MustacheError? {
        loadError(["page.html": source], limits: limits)
    }

    @Test func anUnclosedSectionIsReportedWhereItOpens() throws {
        let source = (1 ... 11).map { "line \($0)\n" }.joined() + "{{#releases}}\n<li>{{name}}</li>\n"
        let error = try #require(pageError(source))
        #expect(error.kind == .unclosedSection)
        #expect(error.path == "page.html")
        #expect(error.line == 12)
        #expect(error.tag == "{{#releases}}")
        #expect(error.description == "page.html line 12: the section {{#releases}} opened here is never closed; add {{/releases}}")
    }

    @Test func theInnermostUnclosedSectionIsReported() throws {
        let error = try #require(pageError("{{#a}}\n{{^b}}\n"))
        #expect(error.description == "page.html line 2: the section {{^b}} opened here is never closed; add {{/b}}")
    }

    @Test func aMismatchedCloseNamesBothTagsAndTheOpeningLine() throws {
        let source = String(repeating: "\n", count: 8) + "{{#release}}\n" + String(repeating: "x\n", count: 4) + "{{/device}}\n"
        let error = try #require(pageError(source))
        #expect(error.kind == .mismatchedClose)
        #expect(error.line == 14)
        #expect(error.tag == "{{/device}}")
        #expect(error.description == "page.html line 14: {{/device}} closes {{#release}} opened on line 9; add {{/release}} before it or correct the name")
    }

    @Test func aCloseWithNothingOpenIsRefused() throws {
        let error = try #require(pageError("a\n{{/list}}"))
        #expect(error.kind == .unopenedClose)
        #expect(error.description == "page.html line 2: {{/list}} closes no open section; remove it or open the section before it with {{#list}}")
        #expect(pageError("{{#a}}{{/a}}{{/a}}")?.kind == .unopenedClose)
    }

    @Test func anUnclosedTagIsRefused() throws {
        let error = try #require(pageError("<p>\n<b>{{name</b>\n"))
        #expect(error.kind == .unclosedTag)
        #expect(error.line == 2)
        #expect(error.description == "page.html line 2: the tag {{name</b> is never closed; add }}")
        #expect(pageError("{{")?.kind == .unclosedTag)
        #expect(pageError("x {{#a}")?.kind == .unclosedTag)
        #expect(pageError("{{! comment without end")?.kind == .unclosedTag)
    }

    @Test func aTagRunningIntoTheNextTagIsRefused() throws {
        let error = try #require(pageError("{{#a}}\n{{name {{other}}\n{{/a}}"))
        #expect(error.kind == .unclosedTag)
        #expect(error.description == "page.html line 2: the tag {{name is never closed before the next {{; add }}")
    }

    @Test func aTripleTagClosedByTwoBracesIsRefused() throws {
        let error = try #require(pageError("{{{raw}} and more"))
        #expect(error.kind == .unclosedTag)
        #expect(error.description == "page.html line 1: the tag {{{raw}} opens with {{{ but closes with }}; close it with }}}")
    }

    @Test func emptyTagsAreRefused() throws {
        let error = try #require(pageError("a\n\n{{ }}"))
        #expect(error.kind == .emptyTag)
        #expect(error.description == "page.html line 3: the tag {{}} is empty; write a name inside it, such as {{name}}, or remove it")
        for source in ["{{}}", "{{#}}{{/}}", "{{^ }}", "{{/}}", "{{&}}", "{{{}}}", "{{{ }}}", "{{>}}", "{{> }}"] {
            #expect(pageError(source)?.kind == .emptyTag, "\(source)")
        }
        #expect(pageError("{{#}}")?.description == "page.html line 1: the tag {{#}} has no name; write one after #, such as {{#name}}")
        #expect(pageError("{{>}}")?.description == "page.html line 1: the partial tag {{>}} names no partial; write the template's name after >, such as {{> footer}}")
    }

    @Test func invalidNamesAreRefused() throws {
        let error = try #require(pageError("{{first name}}"))
        #expect(error.kind == .invalidName)
        #expect(error.tag == "{{first name}}")
        #expect(error.description == "page.html line 1: the tag {{first name}} has an invalid name; names use letters, digits, _ and -, with dots between the parts of a dotted name")
        for source in ["{{a..b}}", "{{.a}}", "{{a.}}", "{{..}}", "{{#a b}}{{/a b}}", "{{a?}}", "{{&a/b}}", "{{{a}b}}}", "{{é}}", "{{*dynamic}}", "{{ {x} }}"] {
            #expect(pageError(source)?.kind == .invalidName, "\(source)")
        }
        let partial = try #require(pageError("{{> foot er}}"))
        #expect(partial.kind == .invalidName)
        #expect(partial.description == "page.html line 1: the partial tag {{> foot er}} has an invalid name; partial names use letters, digits, _, -, . and /")
    }

    @Test func messagesQuoteAtMostTheStartOfARunawayTag() throws {
        let runaway = String(repeating: "word ", count: 5000)
        for source in ["{{\(runaway)}}", "{{=\(runaway)}}", "{{> \(runaway)}}", "{{{\(runaway)}} x", "{{\(runaway){{x}}"] {
            let error = try #require(pageError(source))
            #expect(error.description.count < 300, "\(error.kind): \(error.description.count) characters")
            #expect(error.tag?.contains("…") == true, "\(error.kind)")
        }
    }

    @Test func setDelimiterTagsAreRefused() throws {
        let error = try #require(pageError("first\n{{=<% %>=}}\n<% name %>"))
        #expect(error.kind == .setDelimiter)
        #expect(error.line == 2)
        #expect(error.tag == "{{=<% %>=}}")
        #expect(error.description == "page.html line 2: set-delimiter tags such as {{=<% %>=}} are not supported; keep the {{ }} delimiters")
        #expect(pageError("{{= | | =}}")?.kind == .setDelimiter)
    }

    @Test func templateInheritanceIsRefused() throws {
        let error = try #require(pageError("{{<layout}}{{$body}}x{{/body}}{{/layout}}"))
        #expect(error.kind == .unsupportedTag)
        #expect(error.description == "page.html line 1: {{<layout}} is template inheritance, which is not supported; use a partial ({{> name}}) instead")
        #expect(pageError("{{$block}}{{/block}}")?.kind == .unsupportedTag)
    }

    @Test func linesCountThroughMultiLineTags() throws {
        let error = try #require(pageError("{{!\n\n\n}}\n{{\nname\n}}\n{{/x}}"))
        #expect(error.kind == .unopenedClose)
        #expect(error.line == 8)
    }

    @Test func anUnknownPartialIsRefusedAtLoad() throws {
        let templates = ["page.html": "<body>\n" + String(repeating: "<p>\n", count: 18) + "{{> footer}}\n</body>", "header": "h"]
        let error = try #require(loadError(templates))
        #expect(error.kind == .unknownPartial)
        #expect(error.path == "page.html")
        #expect(error.line == 20)
        #expect(error.tag == "{{> footer}}")
        #expect(error.description == "page.html line 20: unknown partial {{> footer}}; add a template named footer or correct the name")
    }

    @Test func anUnknownPartialInsideASectionIsRefusedToo() {
        #expect(loadError(["page": "{{#never}}{{>missing}}{{/never}}"])?.kind == .unknownPartial)
    }

    @Test func aPartialIncludingItselfWhateverTheDataIsRefused() throws {
        let error = try #require(loadError(["node": "x\n{{>node}}"]))
        #expect(error.kind == .partialCycle)
        #expect(error.description == "node line 2: {{> node}} includes node again whatever the data (node → node), so rendering would never end; put it inside a section that stops the recursion")
        let longer = try #require(loadError(["a": "{{>b}}", "b": "{{#x}}{{/x}}{{>c}}", "c": "\n{{^y}}{{/y}}{{>a}}", "d": "{{>a}}"]))
        #expect(longer.kind == .partialCycle)
        #expect(longer.path == "c")
        #expect(longer.line == 2)
        #expect(longer.reason.contains("(a → b → c → a)"))
    }

    @Test func recursionInsideASectionIsAllowedAtLoad() {
        #expect(loadError(["node": "{{#children}}{{>node}}{{/children}}"]) == nil)
        #expect(loadError(["a": "{{^done}}{{>b}}{{/done}}", "b": "{{>a}}"]) == nil)
    }

    @Test func theFirstBrokenTemplateByNameIsReported() {
        let templates = ["b.html": "{{#x}}", "a.html": "{{/y}}", "c.html": "{{"]
        for _ in 0 ..< 5 {
            #expect(loadError(templates)?.path == "a.html")
        }
    }

    @Test func nestingBeyondTheLimitIsRefused() throws {
        let limits = MustacheLimits(maximumSectionNesting: 3)
        #expect(pageError("{{#a}}{{#b}}{{#c}}{{/c}}{{/b}}{{/a}}", limits: limits) == nil)
        let error = try #require(pageError("{{#a}}{{#b}}{{#c}}\n{{#d}}{{/d}}{{/c}}{{/b}}{{/a}}", limits: limits))
        #expect(error.kind == .nestingTooDeep)
        #expect(error.description == "page.html line 2: the section {{#d}} is nested 4 deep, more than the limit of 3; move inner parts into partials")
    }

    @Test func aTemplateBeyondTheSizeLimitIsRefused() throws {
        let limits = MustacheLimits(maximumTemplateBytes: 10)
        #expect(pageError("0123456789", limits: limits) == nil)
        let error = try #require(pageError("0123456789a", limits: limits))
        #expect(error.kind == .templateTooLarge)
        #expect(error.line == nil)
        #expect(error.description == "page.html: the template is 11 bytes, more than the limit of 10; split it into partials")
    }

    @Test func templateBytesThatAreNotUTF8AreRefused() throws {
        let files: [String: [UInt8]] = ["Templates/bad.html": [0x3c, 0x70, 0xff, 0x3e]]
        var thrown: MustacheError?
        do { _ = try MustacheLibrary(files: files, folder: "Templates") } catch { thrown = error }
        let error = try #require(thrown)
        #expect(error.kind == .invalidEncoding)
        #expect(error.description == "Templates/bad.html: the template is not valid UTF-8; save it as UTF-8")
    }

    @Test func duplicateNamesAreRefused() throws {
        let first = try MustacheTemplate(name: "page", source: "1", path: "one/page")
        let second = try MustacheTemplate(name: "page", source: "2", path: "two/page")
        var thrown: MustacheError?
        do { _ = try MustacheLibrary([first, second]) } catch { thrown = error }
        #expect(thrown?.kind == .duplicateTemplate)
        #expect(thrown?.description == "two/page: a template named page is already loaded from one/page; rename one of them")
    }

    @Test func errorsNameTheTemplatesPathWhenItHasOne() throws {
        var thrown: MustacheError?
        do { _ = try MustacheTemplate(name: "tester", source: "\n{{#x}}", path: "Templates/tester.html") } catch { thrown = error }
        #expect(thrown?.description == "Templates/tester.html line 2: the section {{#x}} opened here is never closed; add {{/x}}")
    }
}
