import Foundation
import Testing
@testable import HTMLTemplates

private func render(_ source: String, _ context: TemplateValue, partials: [String: String] = [:]) throws -> String {
    var sources = partials
    sources["page"] = source
    return try TemplateSet(sources: sources).render("page", context)
}

@Suite struct TemplateRenderingTests {
    @Test func variablesAreEscaped() throws {
        let html = try render("<p title=\"{{t}}\">{{n}}</p>", ["n": "<script>alert('x')</script> & co", "t": "a\"b"])
        #expect(html == "<p title=\"a&quot;b\">&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co</p>")
    }

    @Test func tripleBracesEscapePlainStringsButNotTrustedHTML() throws {
        #expect(try render("{{{s}}}|{{& s}}", ["s": "<b>"]) == "&lt;b&gt;|&lt;b&gt;")
        #expect(try render("{{{h}}}|{{h}}", ["h": .trustedHTML("<b>ok</b>")]) == "<b>ok</b>|<b>ok</b>")
    }

    @Test func koreanAndEmojiPassThrough() throws {
        #expect(try render("{{n}}", ["n": "우유병 텀블러 😗"]) == "우유병 텀블러 😗")
    }

    @Test func dottedNamesAndIntegers() throws {
        let context: TemplateValue = ["product": ["vendor": ["name": "red123"], "stock": 2]]
        #expect(try render("{{product.vendor.name}}:{{product.stock}}:{{product.missing.x}}", context) == "red123:2:")
    }

    @Test func listSectionsIterateAndSeeOuterNames() throws {
        let context: TemplateValue = ["items": [["n": "a"], ["n": "b"]], "sep": ","]
        #expect(try render("{{#items}}{{n}}{{sep}}{{/items}}", context) == "a,b,")
        #expect(try render("{{#tags}}[{{.}}]{{/tags}}", ["tags": ["x", "<y>"]]) == "[x][&lt;y&gt;]")
    }

    @Test func falsyValuesSkipSectionsAndOpenInvertedOnes() throws {
        for falsy: TemplateValue in [false, nil, [], ""] {
            #expect(try render("{{#v}}yes{{/v}}{{^v}}no{{/v}}", ["v": falsy]) == "no")
        }
        for truthy: TemplateValue in [true, 0, ["x"], "s", ["k": "v"]] {
            #expect(try render("{{#v}}yes{{/v}}{{^v}}no{{/v}}", ["v": truthy]) == "yes")
        }
        #expect(try render("{{^missing}}none{{/missing}}", [:]) == "none")
    }

    @Test func objectSectionsPushTheirScope() throws {
        #expect(try render("{{#p}}{{name}}/{{outer}}{{/p}}", ["p": ["name": "x"], "outer": "o"]) == "x/o")
    }

    @Test func partialsRenderWithTheCurrentContext() throws {
        let html = try render("{{#items}}{{> card}}{{/items}}", ["items": [["n": "1"], ["n": "2"]]],
                              partials: ["card": "<li>{{n}}</li>"])
        #expect(html == "<li>1</li><li>2</li>")
    }

    @Test func commentsVanish() throws {
        #expect(try render("a{{! anything <here> }}b", [:]) == "ab")
    }

    @Test func recursivePartialsStopWithAnError() throws {
        #expect(throws: TemplateError.self) { try render("{{> page}}", [:]) }
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
        #expect(try set.render("list", ["n": "x"]) == "<ul><li>x</li></ul>")
        #expect(throws: TemplateError.self) { try set.render("nope", [:]) }
    }

    /// Partials that include each other inside loops multiply their output: past the bound the
    /// render fails instead of growing without end (found by the templates fuzz target).
    @Test func outputBeyondTheBoundIsAnError() throws {
        let items = TemplateValue.list(Array(repeating: "x", count: 100))
        let partials = ["a": "{{#items}}{{>b}}{{/items}}", "b": String(repeating: "y", count: 1024)]
        // 100 × 100 × 1 KiB = 10 MB > 8 MiB; one level less is fine.
        #expect(throws: TemplateError.self) { try render("{{#items}}{{>a}}{{/items}}", ["items": items], partials: partials) }
        #expect(try render("{{>a}}", ["items": items], partials: partials).utf8.count == 100 * 1024)
    }
}
