import Foundation
import Testing
@testable import HTMLTemplates

// Views for the tests: a page with rows, as the panel's list page has.
private struct Row: TemplateView {
    var id: Int
    var name: String
    var note: String?
    var soldOut: Bool
    var badge: Badge?
    static let templateFields: ViewFields<Row> = [
        .int("id") { $0.id },
        .text("name") { $0.name },
        .optionalText("note") { $0.note },
        .flag("sold_out") { $0.soldOut },
        .optionalView("badge") { $0.badge },
    ]
}

private struct Badge: TemplateView {
    var label: String
    static let templateFields: ViewFields<Badge> = [.text("label") { $0.label }]
}

private struct Page: TemplateView {
    var title: String
    var rows: [Row]
    var markup: String
    var tags: [String]
    var empty: String
    var canWrite: Bool
    static let templateFields: ViewFields<Page> = [
        .text("title") { $0.title },
        .list("rows") { $0.rows },
        .trustedHTML("markup") { $0.markup },
        .text("plain") { $0.markup },
        .text("empty") { $0.empty },
        .flag("can_write") { $0.canWrite },
    ]
}

private struct Frame: TemplateView {
    var title: String
    static let templateFields: ViewFields<Frame> = [.text("title") { $0.title }, .body("body")]
}

private let strings = ["app": "Market & <Co>", "sold": "품절", "empty": ""]

private func compile<View: TemplateView>(_ source: String, _ type: View.Type, partials: [String: String] = [:],
                                         strings: [String: String] = strings) throws(TemplateError) -> TemplateProgram<View> {
    var sources = partials
    sources["page"] = source
    let set: TemplateSet
    do { set = try TemplateSet(sources: sources) } catch { throw error as! TemplateError }
    return try set.compile("page", as: type, strings: strings)
}

private let samplePage = Page(
    title: "<Spring> \"sale\" & 'more'",
    rows: [Row(id: 7, name: "우유병 텀블러 😗", note: "a<b", soldOut: false, badge: Badge(label: "SALE")),
           Row(id: -3, name: "", note: nil, soldOut: true, badge: nil),
           Row(id: 0, name: "x&y", note: "", soldOut: false, badge: nil)],
    markup: "<b>bold</b>", tags: [], empty: "", canWrite: true)

@Suite struct TemplateProgramTests {
    @Test func aPageWithRowsSectionsAndPartials() throws {
        let source = """
        <h1 title="{{title}}">{{title}} · {{t.app}}</h1>{{{markup}}}|{{{plain}}}|{{& plain}}
        <ul>{{#rows}}<li id="p{{id}}">{{name}}{{#note}} ({{note}}){{/note}}{{^note}}-{{/note}}\
        {{#sold_out}}<b>{{t.sold}}</b>{{/sold_out}}{{^sold_out}}{{id}}{{/sold_out}}\
        {{#badge}}<i>{{label}}/{{title}}</i>{{/badge}}{{#can_write}}<a>{{name}}</a>{{/can_write}}{{> mark}}</li>{{/rows}}</ul>
        {{^rows}}none{{/rows}}{{#empty}}E{{/empty}}{{^empty}}not E{{/empty}}{{#t.empty}}X{{/t.empty}}{{^t.empty}}Y{{/t.empty}}
        """
        let partials = ["mark": "[{{name}}{{#sold_out}}:{{sold_out}}{{/sold_out}}]"]
        let set = try TemplateSet(sources: partials.merging(["page": source]) { a, _ in a })
        let program = try set.compile("page", as: Page.self, strings: strings)
        let title = "&lt;Spring&gt; &quot;sale&quot; &amp; &#39;more&#39;"
        let head = "<h1 title=\"\(title)\">\(title) · Market &amp; &lt;Co&gt;</h1>"
            + "<b>bold</b>|&lt;b&gt;bold&lt;/b&gt;|&lt;b&gt;bold&lt;/b&gt;\n<ul>"
        let rows = "<li id=\"p7\">우유병 텀블러 😗 (a&lt;b)7<i>SALE/\(title)</i><a>우유병 텀블러 😗</a>[우유병 텀블러 😗]</li>"
            + "<li id=\"p-3\">-<b>품절</b><a></a>[:true]</li>"
            + "<li id=\"p0\">x&amp;y-0<a>x&amp;y</a>[x&amp;y]</li>"
        #expect(try program.renderString(samplePage) == head + rows + "</ul>\nnot EY")
        // Empty list: the inverted section shows.
        var empty = samplePage
        empty.rows = []
        #expect(try program.renderString(empty) == head + "</ul>\nnonenot EY")
    }

    @Test func onlyTrustedHTMLIsWrittenRaw() throws {
        let program = try compile("{{{markup}}}|{{{plain}}}|{{plain}}|{{t.app}}", Page.self)
        #expect(try program.renderString(samplePage) == "<b>bold</b>|&lt;b&gt;bold&lt;/b&gt;|&lt;b&gt;bold&lt;/b&gt;|Market &amp; &lt;Co&gt;")
    }

    @Test func truthinessFollowsMustacheRules() throws {
        let program = try compile("{{#rows}}{{#note}}n{{/note}}{{^note}}-{{/note}}{{#sold_out}}s{{/sold_out}}{{#badge}}b{{/badge}}{{^badge}}_{{/badge}}{{#id}}i{{/id}};{{/rows}}", Page.self)
        // note "a<b" truthy, nil and "" falsy; id 0 and negative still truthy (ints always are).
        #expect(try program.renderString(samplePage) == "nbi;-s_i;-_i;")
    }

    @Test func rowsReadTheirPagesFieldsAndKeepTheirOwnFirst() throws {
        let program = try compile("{{#rows}}{{#badge}}{{label}}{{name}}{{title}}{{/badge}}{{/rows}}", Page.self)
        #expect(try program.renderString(samplePage) == "SALE우유병 텀블러 😗&lt;Spring&gt; &quot;sale&quot; &amp; &#39;more&#39;")
    }

    @Test func staticTextIsJoinedAndEscapedOncePerLanguage() throws {
        let program = try compile("<p>{{t.app}}</p>{{! note }}<i>{{t.sold}}</i>{{title}}", Page.self)
        #expect(program.block.steps.count == 2)
        if case .bytes(let bytes) = program.block.steps[0] {
            #expect(String(decoding: bytes, as: UTF8.self) == "<p>Market &amp; &lt;Co&gt;</p><i>품절</i>")
        } else {
            Issue.record("the first step is not static text")
        }
        let english = try compile("{{t.sold}}", Page.self, strings: ["sold": "Sold out"])
        #expect(try english.renderString(samplePage) == "Sold out")
    }

    @Test func aFieldTheViewLacksFailsAtCompileTimeWithFileAndLine() {
        #expect(throws: TemplateError.self) { try compile("ok\n{{titel}}", Page.self) }
        do {
            _ = try compile("line one\nline two {{#rows}}\n{{price}}{{/rows}}", Page.self)
            Issue.record("compiled a template naming a missing field")
        } catch {
            #expect(error.description.hasPrefix("page.html:3: "))
            #expect(error.description.contains("'price'"))
            #expect(error.description.contains("Row"))
        }
        // In a partial, the partial's file and line are named.
        do {
            _ = try compile("{{#rows}}{{> card}}{{/rows}}", Page.self, partials: ["card": "<li>\n\n{{nmae}}</li>"])
            Issue.record("compiled a partial naming a missing field")
        } catch {
            #expect(error.description.hasPrefix("card.html:3: "))
        }
    }

    @Test func otherCompileErrors() {
        func reason(_ source: String, partials: [String: String] = [:]) -> String {
            do { _ = try compile(source, Page.self, partials: partials); return "" } catch { return error.description }
        }
        #expect(reason("{{t.nothing}}").contains("t.nothing"))
        #expect(reason("{{rows}}").contains("not a value"))
        #expect(reason("{{title.x}}").contains("single names"))
        #expect(reason("{{.}}").contains("{{.}}"))
        #expect(reason("{{> loop}}", partials: ["loop": "a{{> loop}}"]).contains("deeper than 64"))
        #expect(reason("{{> missing}}").contains("does not exist"))
    }

    @Test func aViewDeclaringANameTwiceIsRefused() {
        struct Twice: TemplateView {
            static let templateFields: ViewFields<Twice> = [.text("a") { _ in "1" }, .text("a") { _ in "2" }]
        }
        #expect(throws: TemplateError.self) { try compile("{{a}}", Twice.self) }
    }

    @Test func theOutputLimitHolds() throws {
        let big = String(repeating: "x", count: 1024 * 1024)
        let program = try compile("{{#rows}}{{name}}{{name}}{{/rows}}", Page.self)
        var page = samplePage
        page.rows = Array(repeating: Row(id: 1, name: big, note: nil, soldOut: false, badge: nil), count: 8)
        #expect(throws: TemplateError.self) { try program.render(page) }
    }

    @Test func aFrameRendersItsPageInPlace() throws {
        let frame = try compile("<title>{{title}}</title><main>{{{body}}}</main><footer>{{title}}</footer>", Frame.self)
        let page = try compile("{{#rows}}<p>{{name}}</p>{{/rows}}", Page.self)
        let data = try frame.render(Frame(title: "F&"), around: page.embedding(samplePage))
        #expect(String(decoding: data, as: UTF8.self)
                == "<title>F&amp;</title><main><p>우유병 텀블러 😗</p><p></p><p>x&amp;y</p></main><footer>F&amp;</footer>")
    }
}
