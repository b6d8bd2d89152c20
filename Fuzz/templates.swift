// fuzz-module-of: TemplateCompiler.swift
// Fuzz target: the compiled template engine, as the panel runs it. NUL bytes split the input
// into up to three templates ("page", "a", "b") that may include each other; "page" is compiled
// against a view with a field of every kind (text, optional text, trusted HTML, int, flag, a
// list of rows, optional and plain child views, the frame's body) and rendered alone and as a
// frame around itself. The steps read views through raw pointers (list rows where they lie in
// the array, enclosing views from slots), so this runs under AddressSanitizer (scripts/fuzz).
// Checks: compiling or rendering never traps; the same view renders the same bytes twice;
// output stays escaped (a plain string or `t.` text never reaches it raw).

import Foundation

private let hostile = "<script>alert(1)</script>"

private struct FuzzBadge: TemplateView {
    var label: String
    var level: Int8
    static let templateFields: ViewFields<FuzzBadge> = [
        .text("label") { $0.label },
        .int("level") { Int($0.level) },
    ]
}

/// A row of mixed sizes and alignments, so a wrong stride or offset reads the wrong bytes.
private struct FuzzRow: TemplateView {
    var soldOut: Bool
    var name: String
    var price: Int
    var note: String?
    var badge: FuzzBadge?
    var tags: [FuzzBadge]
    static let templateFields: ViewFields<FuzzRow> = [
        .flag("sold_out") { $0.soldOut },
        .text("name") { $0.name },
        .int("price") { $0.price },
        .optionalText("note") { $0.note },
        .optionalView("badge") { $0.badge },
        .list("tags") { $0.tags },
    ]
}

private struct FuzzInner: TemplateView {
    var deep: String
    var rows: [FuzzRow]
    static let templateFields: ViewFields<FuzzInner> = [
        .text("deep") { $0.deep },
        .list("rows") { $0.rows },
    ]
}

private struct FuzzPage: TemplateView {
    var name: String
    var count: Int
    var yes: Bool
    var no: Bool
    var maybe: String?
    var note: String?
    var html: String
    var items: [FuzzRow]
    var empty: [FuzzRow]
    var nested: FuzzInner?
    var none: FuzzInner?
    var always: FuzzBadge
    static let templateFields: ViewFields<FuzzPage> = [
        .text("name") { $0.name },
        .int("count") { $0.count },
        .flag("yes") { $0.yes },
        .flag("no") { $0.no },
        .optionalText("maybe") { $0.maybe },
        .optionalText("note") { $0.note },
        .trustedHTML("html") { $0.html },
        .list("items") { $0.items },
        .list("empty") { $0.empty },
        .optionalView("nested") { $0.nested },
        .optionalView("none") { $0.none },
        .view("always") { $0.always },
        .body("body"),
    ]
}

private let strings = ["title": "Market & <Co>", "sold": "품절", "empty": "", "hostile": hostile]

private func makePage() -> FuzzPage {
    let rows = [
        FuzzRow(soldOut: false, name: hostile, price: -7, note: "a<b",
                badge: FuzzBadge(label: "x\"y", level: -1), tags: [FuzzBadge(label: "&amp;", level: 3)]),
        FuzzRow(soldOut: true, name: "우유병 😗", price: Int.min, note: nil, badge: nil, tags: []),
    ]
    return FuzzPage(name: hostile, count: Int.max, yes: true, no: false, maybe: nil, note: "'quoted'",
                    html: "<b>ok</b>", items: rows, empty: [],
                    nested: FuzzInner(deep: "<i>", rows: rows), none: nil, always: FuzzBadge(label: hostile, level: 9))
}

@_cdecl("fuzz_templates")
public func fuzzTemplates(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let parts = UnsafeBufferPointer(start: data, count: size)
        .split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    var sources: [String: String] = [:]
    for (name, part) in zip(["page", "a", "b"], parts) {
        sources[name] = String(decoding: part, as: UTF8.self)
    }
    // Sections nest up to 64 levels and each list runs its block once per row: a template of
    // nested sections that write nothing runs 2^depth blocks without reaching the output limit.
    // Templates are our own files, so that is a slow template, not a finding; keep the search
    // on memory and escaping.
    let sectionCount = sources.values.reduce(0) { $0 + $1.components(separatedBy: "{{#").count - 1 }
    guard sectionCount <= 12 else { return 0 }

    guard let set = try? TemplateSet(sources: sources),
          let program = try? set.compile("page", as: FuzzPage.self, strings: strings) else { return 0 }
    let page = makePage()
    let raw = Array(hostile.utf8)
    let sourceHasIt = sources.values.contains { containsBytes(Array($0.utf8), raw) }

    let alone = try? program.render(page, capacity: 64)
    if let alone {
        fuzzCheck(sourceHasIt || !containsBytes(Array(alone), raw), "a plain string reached the output unescaped")
        fuzzCheck((try? program.render(page, capacity: 64)) == alone, "the same view rendered different bytes")
    }
    if let framed = try? program.render(page, around: program.embedding(page), capacity: 64) {
        fuzzCheck(sourceHasIt || !containsBytes(Array(framed), raw), "a plain string reached the framed output unescaped")
    }
    return 0
}

private func containsBytes(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= haystack.count else { return false }
    return (0...(haystack.count - needle.count)).contains { start in
        haystack[start] == needle[0] && haystack[start..<start + needle.count].elementsEqual(needle)
    }
}
