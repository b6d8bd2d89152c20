/// An ordered list of header fields with case-insensitive names.
///
/// Every way in (`init`, `add`, the subscripts) cleans its input, so a value taken from a user
/// can never smuggle CR, LF or NUL onto the wire: names that are not tokens are dropped, and
/// CR, LF and NUL are removed from values.
///
/// Two representations behind one API:
/// - a parsed request's fields stay bytes of its head (`ParsedFields`): a String is made only
///   for the value asked for, and the first change turns them into fields;
/// - built fields, each named by a `KnownHeader` when it has one (compared as one byte), plus
///   precomputed `HeaderBlock`s written to the wire as they are.
public struct HTTPHeaders: Sendable, Sequence, Equatable {
    public typealias Element = (name: String, value: String)

    struct Field: Sendable {
        var name: String
        var known: KnownHeader?
        var value: String
    }

    enum Entry: Sendable {
        case field(Field)
        case block(HeaderBlock)
    }

    private var entries: [Entry] = []
    /// A parsed request's fields, read in place until someone changes them.
    private(set) var parsed: ParsedFields?

    public init(_ pairs: [(String, String)] = []) {
        entries.reserveCapacity(pairs.count)
        for (name, value) in pairs { add(name, value) }
    }

    /// One field named by its known case.
    public init(_ header: KnownHeader, _ value: String) {
        add(header, value)
    }

    /// For the request parser, which has already validated every byte.
    init(parsed: ParsedFields) { self.parsed = parsed }

    /// A name as a lookup key: its known case if it has one.
    private struct Key {
        let known: KnownHeader?
        let name: String
        init(_ name: String) { self.known = KnownHeader(name); self.name = name }
        init(_ known: KnownHeader) { self.known = known; self.name = known.name }
        init(_ field: Field) { self.known = field.known; self.name = field.name }

        func matches(_ field: Field) -> Bool {
            if let known { return field.known == known }
            return field.known == nil && ASCII.equalsIgnoringCase(field.name, name)
        }
    }

    // MARK: reading

    /// The first value for `name`; setting replaces all values (nil removes them).
    public subscript(name: String) -> String? {
        get { first(Key(name)) }
        set { replace(Key(name), with: newValue) }
    }

    /// The first value of a known header; setting replaces all its values (nil removes them).
    public subscript(header: KnownHeader) -> String? {
        get { first(Key(header)) }
        set { replace(Key(header), with: newValue) }
    }

    public func values(_ name: String) -> [String] { values(Key(name)) }

    public func values(_ header: KnownHeader) -> [String] { values(Key(header)) }

    public func contains(_ name: String) -> Bool { first(Key(name)) != nil }

    public func contains(_ header: KnownHeader) -> Bool { first(Key(header)) != nil }

    public var count: Int {
        if let parsed { return parsed.count }
        return entries.reduce(0) { total, entry in
            switch entry {
            case .field: total + 1
            case .block(let block): total + block.fields.count
            }
        }
    }

    public func makeIterator() -> IndexingIterator<[Element]> { elements.makeIterator() }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        let l = lhs.elements, r = rhs.elements
        return l.count == r.count && zip(l, r).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    private var elements: [Element] {
        if let parsed { return parsed.elements }
        var all: [Element] = []
        all.reserveCapacity(entries.count)
        forEachField { all.append(($0.name, $0.value)) }
        return all
    }

    private func forEachField(_ body: (Field) -> Void) {
        for entry in entries {
            switch entry {
            case .field(let field): body(field)
            case .block(let block): block.fields.forEach(body)
            }
        }
    }

    private func first(_ key: Key) -> String? {
        if let parsed { return key.known.map { parsed.first($0) } ?? parsed.first(named: key.name) }
        for entry in entries {
            switch entry {
            case .field(let field): if key.matches(field) { return field.value }
            case .block(let block): if let field = block.fields.first(where: key.matches) { return field.value }
            }
        }
        return nil
    }

    private func values(_ key: Key) -> [String] {
        if let parsed { return key.known.map { parsed.values($0) } ?? parsed.values(named: key.name) }
        var found: [String] = []
        forEachField { if key.matches($0) { found.append($0.value) } }
        return found
    }

    // MARK: changing

    public mutating func add(_ name: String, _ value: String) {
        guard ASCII.isToken(name) else { return }
        materialize()
        entries.append(.field(Field(name: name, known: KnownHeader(name), value: Self.sanitized(value))))
    }

    public mutating func add(_ header: KnownHeader, _ value: String) {
        materialize()
        entries.append(.field(Field(name: header.name, known: header, value: Self.sanitized(value))))
    }

    public mutating func remove(_ name: String) { remove(Key(name)) }

    public mutating func remove(_ header: KnownHeader) { remove(Key(header)) }

    /// Puts `block`'s fields at the end, replacing any field of the same names (as setting each
    /// with the subscript would, in one step and without serializing them again).
    public mutating func set(_ block: HeaderBlock) {
        materialize()
        entries.removeAll { entry in
            if case .block(let other) = entry { return other.bytes == block.bytes }   // set again: moved, not split
            return false
        }
        for field in block.fields { remove(Key(field)) }
        entries.append(.block(block))
    }

    private mutating func replace(_ key: Key, with value: String?) {
        remove(key)
        guard let value, ASCII.isToken(key.name) else { return }
        // The name as the caller spelled it goes on the wire, as it always did.
        entries.append(.field(Field(name: key.name, known: key.known, value: Self.sanitized(value))))
    }

    private mutating func remove(_ key: Key) {
        materialize()
        guard entries.contains(where: { entry in
            switch entry {
            case .field(let field): key.matches(field)
            case .block(let block): block.fields.contains(where: key.matches)
            }
        }) else { return }
        var kept: [Entry] = []
        kept.reserveCapacity(entries.count)
        for entry in entries {
            switch entry {
            case .field(let field):
                if !key.matches(field) { kept.append(entry) }
            case .block(let block):
                if block.fields.contains(where: key.matches) {
                    // A field of a block is replaced: the rest of the block goes on as fields.
                    kept += block.fields.filter { !key.matches($0) }.map(Entry.field)
                } else {
                    kept.append(entry)
                }
            }
        }
        entries = kept
    }

    /// Parsed fields become built ones before the first change.
    private mutating func materialize() {
        guard let parsed else { return }
        self.parsed = nil
        entries = parsed.fields.map(Entry.field)
    }

    // MARK: writing

    /// `CRLF name: value` for each field, skipping those the connection manages (the last line
    /// of defence re-checks names and values, as any entry could be).
    func write(into head: inout [UInt8]) {
        if let parsed {
            for field in parsed.fields { Self.write(field, into: &head) }
            return
        }
        for entry in entries {
            switch entry {
            case .field(let field): Self.write(field, into: &head)
            case .block(let block): head += block.bytes
            }
        }
    }

    private static func write(_ field: Field, into head: inout [UInt8]) {
        if let known = field.known {
            if known.isManagedByConnection { return }
        } else if !ASCII.isToken(field.name) {
            return
        }
        guard !field.value.utf8.contains(where: { $0 == ASCII.cr || $0 == ASCII.lf || $0 == 0 }) else { return }
        head += [ASCII.cr, ASCII.lf]
        head += field.name.utf8
        head += [ASCII.colon, ASCII.space]
        head += field.value.utf8
    }

    /// Removes the bytes that could end a header line or truncate it in C code.
    static func sanitized(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == ASCII.cr || $0 == ASCII.lf || $0 == 0 }) else { return value }
        return String(value.unicodeScalars.filter { $0 != "\r" && $0 != "\n" && $0 != "\0" })
    }
}
