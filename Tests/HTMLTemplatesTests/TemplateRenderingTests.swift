import Foundation
import Testing
@testable import HTMLTemplates

// The template language as the compiled engine renders it (mustache subset, escaped by default).

private struct Item: TemplateView {
    var n: String
    static let templateFields: ViewFields<Item> = [.text("n") { $0.n }]
}

private struct Context: TemplateView {
    var s = "<b>"
    var h = "<b>ok</b>"
    var n = ""
    var t = ""
    var sep = ","
    var flag = false
    var count = 0
    var maybe: String?
    var items: [Item] = []
    var p: Item?
    static let templateFields: ViewFields<Context> = [
        .text("s") { $0.s },
        .trustedHTML("h") { $0.h },
        .text("n") { $0.n },
        .text("t") { $0.t },
        .text("sep") { $0.sep },
        .flag("flag") { $0.flag },
        .int("count") { $0.count },
        .optionalText("maybe") { $0.maybe },
        .list("items") { $0.items },
        .optionalView("p") { $0.p },
    ]
}

private func render(_ source: String, _ context: Context = Context(), partials: [String: String] = [:]) throws -> String {
    var sources = partials
    sources["page"] = source
    return try TemplateSet(sources: sources).compile("page", as: Context.self, strings: [:]).renderString(context)
}

@Suite struct TemplateRenderingTests {
    @Test func variablesAreEscaped() throws {
        let html = try render("<p title=\"{{t}}\">{{n}}</p>", Context(n: "<script>alert('x')</script> & co", t: "a\"b"))
        #expect(html == "<p title=\"a&quot;b\">&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co</p>")
    }

    @Test func tripleBracesEscapePlainStringsButNotTrustedHTML() throws {
        #expect(try render("{{{s}}}|{{& s}}") == "&lt;b&gt;|&lt;b&gt;")
        #expect(try render("{{{h}}}|{{h}}") == "<b>ok</b>|<b>ok</b>")
    }

    @Test func koreanAndEmojiPassThrough() throws {
        #expect(try render("{{n}}", Context(n: "우유병 텀블러 😗")) == "우유병 텀블러 😗")
    }

    @Test func integersAndFlags() throws {
        #expect(try render("{{count}}:{{flag}}:", Context(flag: false, count: -42)) == "-42::")
        #expect(try render("{{count}}:{{flag}}", Context(flag: true, count: Int.min)) == "\(Int.min):true")
    }

    @Test func listSectionsIterateAndSeeOuterNames() throws {
        let context = Context(items: [Item(n: "a"), Item(n: "<b>")])
        #expect(try render("{{#items}}{{n}}{{sep}}{{/items}}", context) == "a,&lt;b&gt;,")
        #expect(try render("{{#maybe}}[{{.}}]{{/maybe}}", Context(maybe: "<y>")) == "[&lt;y&gt;]")
    }

    @Test func falsyValuesSkipSectionsAndOpenInvertedOnes() throws {
        let section = "{{#flag}}f{{/flag}}{{^flag}}F{{/flag}}{{#n}}n{{/n}}{{^n}}N{{/n}}{{#maybe}}m{{/maybe}}{{^maybe}}M{{/maybe}}"
            + "{{#items}}i{{/items}}{{^items}}I{{/items}}{{#p}}p{{/p}}{{^p}}P{{/p}}{{#count}}c{{/count}}"
        #expect(try render(section) == "FNMIPc")
        #expect(try render(section, Context(n: "x", flag: true, maybe: "", items: [Item(n: "")], p: Item(n: "")))
                == "fnMipc")
        #expect(try render(section, Context(maybe: "y")) == "FNmIPc")
    }

    @Test func objectSectionsPushTheirScope() throws {
        #expect(try render("{{#p}}{{n}}/{{sep}}{{/p}}", Context(sep: "o", p: Item(n: "x"))) == "x/o")
    }

    @Test func partialsRenderWithTheCurrentContext() throws {
        let html = try render("{{#items}}{{> card}}{{/items}}", Context(items: [Item(n: "1"), Item(n: "2")]),
                              partials: ["card": "<li>{{n}}</li>"])
        #expect(html == "<li>1</li><li>2</li>")
    }

    @Test func commentsVanish() throws {
        #expect(try render("a{{! anything <here> }}b") == "ab")
    }

    @Test func recursivePartialsStopWithAnError() throws {
        #expect(throws: TemplateError.self) { try render("{{> page}}") }
    }

    /// Rows are read where they lie in the array: empty lists, one row, and a list whose buffer
    /// has spare capacity (what `append` leaves) render exactly their rows.
    @Test func listsOfEverySizeRenderTheirRows() throws {
        for count in [0, 1, 2, 17] {
            var items: [Item] = []
            items.reserveCapacity(32)
            for index in 0..<count { items.append(Item(n: "\(index)")) }
            let expected = (0..<count).map { "<\($0)>" }.joined()
            #expect(try render("{{#items}}<{{n}}>{{/items}}", Context(items: items)) == expected)
        }
    }
}

@Suite struct TemplateSyntaxErrorTests {
    private func parseError(_ source: String) -> TemplateError? {
        do { _ = try TemplateSet(sources: ["form": source]); return nil } catch let error as TemplateError { return error } catch { return nil }
    }

    @Test func unclosedTagNamesTheLine() {
        let error = parseError("line1\nline2 {{name\n")
        #expect(error?.line == 2)
        #expect(error?.description.hasPrefix("form.html:2:") == true)
    }

    @Test func unclosedSectionNamesItsOpeningLine() {
        let error = parseError("\n\n{{#items}}\nx")
        #expect(error?.line == 3)
        #expect(error?.reason.contains("items") == true)
    }

    @Test func mismatchedCloseIsAnError() {
        #expect(parseError("{{#a}}{{/b}}") != nil)
        #expect(parseError("{{/a}}") != nil)
    }

    @Test func badNamesAndEmptyTagsAreErrors() {
        #expect(parseError("{{}}") != nil)
        #expect(parseError("{{a b}}") != nil)
        #expect(parseError("{{a..b}}") != nil)
    }

    @Test func missingPartialIsAStartUpError() {
        #expect(parseError("{{> nowhere}}")?.reason.contains("nowhere") == true)
    }
}

@Suite struct TemplateDirectoryTests {
    @Test func loadsNestedFilesByRelativeName() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tpl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("partials"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "<ul>{{> partials/item}}</ul>".write(to: folder.appendingPathComponent("list.html"), atomically: true, encoding: .utf8)
        try "<li>{{n}}</li>".write(to: folder.appendingPathComponent("partials/item.html"), atomically: true, encoding: .utf8)
        try "not a template".write(to: folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let set = try TemplateSet(directory: folder)
        #expect(set.names == ["list", "partials/item"])
        #expect(try set.compile("list", as: Context.self, strings: [:]).renderString(Context(n: "x")) == "<ul><li>x</li></ul>")
        #expect(throws: TemplateError.self) { try set.compile("nope", as: Context.self, strings: [:]) }
    }

    /// Partials that include each other inside loops multiply their output: past the bound the
    /// render fails instead of growing without end (found by the templates fuzz target).
    @Test func outputBeyondTheBoundIsAnError() throws {
        let context = Context(items: Array(repeating: Item(n: "x"), count: 100))
        let partials = ["a": "{{#items}}{{>b}}{{/items}}", "b": String(repeating: "y", count: 1024)]
        // 100 × 100 × 1 KiB = 10 MB > 8 MiB; one level less is fine.
        #expect(throws: TemplateError.self) { try render("{{#items}}{{>a}}{{/items}}", context, partials: partials) }
        #expect(try render("{{>a}}", context, partials: partials).utf8.count == 100 * 1024)
    }
}
