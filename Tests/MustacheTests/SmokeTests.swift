import Testing
import Mustache

@Suite struct SmokeTests {
    @Test func renders() throws {
        let library = try MustacheLibrary(templates: ["page": "<h1>{{title}}</h1>\n  {{> footer}}\n", "footer": "<footer>\n{{#x}}y{{/x}}\n</footer>\n"])
        #expect(try library.render("page", ["title": "A&B", "x": true]) == "<h1>A&amp;B</h1>\n  <footer>\n  y\n  </footer>\n")
    }
}
