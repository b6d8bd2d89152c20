// fuzz-module-of: TemplateParser.swift
// Fuzz target: the template parser and renderer. NUL bytes split the input into up to three
// templates ("page", "a", "b") that may include each other; "page" is rendered with a context
// of every value kind. Output must stay escaped: a plain string never reaches it raw.

@_cdecl("fuzz_templates")
public func fuzzTemplates(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let parts = UnsafeBufferPointer(start: data, count: size)
        .split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    var sources: [String: String] = [:]
    for (name, part) in zip(["page", "a", "b"], parts) {
        sources[name] = String(decoding: part, as: UTF8.self)
    }
    guard let set = try? TemplateSet(sources: sources) else { return 0 }
    let context: TemplateValue = [
        "name": "<script>alert(1)</script>", "count": 3, "yes": true, "no": false, "none": nil,
        "html": .trustedHTML("<b>ok</b>"),
        "items": [["name": "x\"y", "price": 1], ["name": "&amp;", "price": 2], "plain"],
        "nested": ["inner": ["deep": "<i>"]],
    ]
    // Searched as bytes: String.contains(String) goes through NSString, which took seconds on
    // the megabytes a few nested partials can produce (a libFuzzer timeout in the harness itself).
    let raw = Array("<script>alert(1)</script>".utf8)
    if let output = try? set.render("page", context) {
        fuzzCheck(!containsBytes(Array(output.utf8), raw) || sources.values.contains { containsBytes(Array($0.utf8), raw) },
                  "a plain string reached the output unescaped")
    }
    return 0
}

private func containsBytes(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= haystack.count else { return false }
    return (0...(haystack.count - needle.count)).contains { start in
        haystack[start] == needle[0] && haystack[start..<start + needle.count].elementsEqual(needle)
    }
}
