/// A parsed request's header fields as offsets into the bytes of its head: nothing is copied
/// or decoded while parsing, a String is made only when a value is asked for.
///
/// `bytes` shares the parser's receive buffer while the request is answered on the loop; a
/// request handed to a handler task takes its own copy of the head (`detached`), so the
/// receive buffer is never pinned by a handler that waits.
struct ParsedFields: Sendable {
    /// One field line: name and value (without the spaces around it), relative to `bytes`.
    struct Span: Sendable {
        var nameStart: Int32
        var nameEnd: Int32
        var valueStart: Int32
        var valueEnd: Int32
        var known: KnownHeader?
    }

    private(set) var bytes: ArraySlice<UInt8>
    private(set) var spans: [Span]
    /// Where the first field of each indexed header is (see `RequestFieldIndex`).
    let index: RequestFieldIndex

    init(bytes: ArraySlice<UInt8>, spans: [Span], index: RequestFieldIndex) {
        self.bytes = bytes
        self.spans = spans
        self.index = index
    }

    var count: Int { spans.count }

    /// The same fields over a copy of just the head's bytes.
    func detached() -> ParsedFields {
        ParsedFields(bytes: ArraySlice(Array(bytes)), spans: spans, index: index)
    }

    func name(_ span: Span) -> ArraySlice<UInt8> {
        bytes[(bytes.startIndex + Int(span.nameStart))..<(bytes.startIndex + Int(span.nameEnd))]
    }

    func value(_ span: Span) -> ArraySlice<UInt8> {
        bytes[(bytes.startIndex + Int(span.valueStart))..<(bytes.startIndex + Int(span.valueEnd))]
    }

    func string(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The first value's bytes of a known header, without making a String.
    func firstValue(_ header: KnownHeader) -> ArraySlice<UInt8>? {
        if let slot = index.first(header) { return value(spans[slot]) }
        if index.covers(header) && index.count(header) == 0 { return nil }
        return spans.first { $0.known == header }.map(value)
    }

    func first(_ header: KnownHeader) -> String? { firstValue(header).map(string) }

    func values(_ header: KnownHeader) -> [String] {
        if index.covers(header) && index.count(header) == 0 { return [] }
        return spans.filter { $0.known == header }.map { string(value($0)) }
    }

    func first(named name: String) -> String? {
        spans.first { matches($0, name) }.map { string(value($0)) }
    }

    func values(named name: String) -> [String] {
        spans.filter { matches($0, name) }.map { string(value($0)) }
    }

    private func matches(_ span: Span, _ name: String) -> Bool {
        guard span.known == nil, Int(span.nameEnd - span.nameStart) == name.utf8.count else { return false }
        return zip(self.name(span), name.utf8).allSatisfy { ASCII.lowercased($0) == ASCII.lowercased($1) }
    }

    var fields: [HTTPHeaders.Field] {
        spans.map { HTTPHeaders.Field(name: string(name($0)), known: $0.known, value: string(value($0))) }
    }

    var elements: [HTTPHeaders.Element] {
        spans.map { (string(name($0)), string(value($0))) }
    }
}

/// The first field of each header the server itself reads (Host, Content-Length,
/// Transfer-Encoding, Connection, Cookie, Origin, If-None-Match, Expect), found while parsing:
/// eight slots in one vector, no allocation.
struct RequestFieldIndex: Sendable {
    private var slots = SIMD8<Int16>(repeating: -1)
    /// How many fields each indexed header has (the parser refuses repeats where they matter).
    private var counts = SIMD8<UInt8>(repeating: 0)

    func covers(_ header: KnownHeader) -> Bool { header.rawValue < 8 }

    func first(_ header: KnownHeader) -> Int? {
        guard covers(header) else { return nil }
        let slot = slots[Int(header.rawValue)]
        return slot < 0 ? nil : Int(slot)
    }

    func count(_ header: KnownHeader) -> Int { covers(header) ? Int(counts[Int(header.rawValue)]) : 0 }

    mutating func record(_ header: KnownHeader, at field: Int) {
        guard covers(header) else { return }
        let i = Int(header.rawValue)
        if slots[i] < 0, field < Int(Int16.max) { slots[i] = Int16(field) }
        if counts[i] < 255 { counts[i] += 1 }
    }
}
