import Foundation

/// Reads the members of one JSON object straight from the answer's bytes by any of their dialect
/// spellings, and reports a broken answer as `.undecodable` with the key path (`pages[3].price`).
/// Each model's `init(reading:)` is its one decoder; `Decodable` goes through it too (see
/// `DecodableModel`).
///
/// One pass over the document checks its syntax and records where each object's members' keys
/// and values lie (nothing built); a typed accessor then builds only the value it is asked for.
/// No tree, no dictionary, no key strings, and a path is written out only for an error. The
/// whole document's syntax is checked before any model reads it (see `OpenMarketJSON.read`), so
/// a syntax error anywhere is reported as one, ahead of any missing or mistyped member.
///
/// A reader borrows the answer's bytes: it lives only inside `OpenMarketJSON.read`.
struct JSONObjectReader {
    /// Where one member lies in the bytes (plain numbers, so the list of them is cheap to build).
    private struct Member {
        var keyStart: Int
        var keyEnd: Int
        /// The value's first byte (its kind: `"`, `{`, `[`, `t`, `f`, `n`, or a number).
        var valueStart: Int
        /// For the rare key that has an escape or non-ASCII bytes, its decoded text's place in
        /// `decodedKeys`; -1 when the key's raw bytes are its text.
        var decodedKey: Int
    }

    /// Every object of a document, in the order they open, with where its members lie: recorded
    /// by the one pass that checks the document's syntax, so no object is scanned twice.
    private struct ObjectIndex {
        struct Object {
            let start: Int
            /// Just past the closing brace.
            var end: Int
            var members: [Member]
            var decodedKeys: [String]
        }

        /// Sorted by `start` (each is added when its brace opens).
        var objects: [Object] = []

        func object(at start: Int) -> Object? {
            var low = 0, high = objects.count
            while low < high {
                let middle = (low + high) / 2
                if objects[middle].start < start { low = middle + 1 } else { high = middle }
            }
            return low < objects.count && objects[low].start == start ? objects[low] : nil
        }
    }

    /// The answer's bytes, borrowed like `JSONCursor`'s: a reader (and anything built from it)
    /// never leaves the `OpenMarketJSON.read` closure; models copy out what they keep.
    let bytes: UnsafeBufferPointer<UInt8>
    private let members: [Member]
    private let decodedKeys: [String]
    private let index: ObjectIndex
    private let location: JSONLocation
    /// Just past the object's closing brace.
    let end: Int

    private init(bytes: UnsafeBufferPointer<UInt8>, object: ObjectIndex.Object, index: ObjectIndex,
                 location: JSONLocation) {
        self.bytes = bytes
        self.members = object.members
        self.decodedKeys = object.decodedKeys
        self.end = object.end
        self.index = index
        self.location = location
    }

    /// The reader of a whole document (one value, whitespace around it), its syntax checked to
    /// the last byte first: a syntax error anywhere is "not valid JSON", ahead of anything a
    /// model would say. `location` is the document's own path ("" unless `Decodable` nests it).
    static func document(_ bytes: UnsafeBufferPointer<UInt8>,
                         location: JSONLocation) throws(OpenMarketError) -> JSONObjectReader {
        let syntaxError = OpenMarketError.undecodable(path: "", reason: "the answer is not valid JSON")
        var cursor = JSONCursor(bytes: bytes, lenient: true)
        var index = ObjectIndex()
        cursor.skipWhitespace()
        let start = cursor.index
        do { try scanValue(&cursor, depth: 0, into: &index) } catch { throw syntaxError }
        cursor.skipWhitespace()
        guard cursor.atEnd else { throw syntaxError }
        return try reader(bytes: bytes, index: index, valueAt: start, location: location)
    }

    /// A reader of the value at `start` in this reader's document (an element of a list, a
    /// nested object), or the error a model gets when that value is no object.
    func reader(valueAt start: Int, location: JSONLocation) throws(OpenMarketError) -> JSONObjectReader {
        try Self.reader(bytes: bytes, index: index, valueAt: start, location: location)
    }

    private static func reader(bytes: UnsafeBufferPointer<UInt8>, index: ObjectIndex, valueAt start: Int,
                               location: JSONLocation) throws(OpenMarketError) -> JSONObjectReader {
        switch Kind(bytes[start]) {
        case .object:
            // Every object of a checked document is in the index; the error only keeps a mistake
            // in this file from becoming a crash.
            guard let object = index.object(at: start) else {
                throw .undecodable(path: location.text, reason: "expected an object")
            }
            return JSONObjectReader(bytes: bytes, object: object, index: index, location: location)
        case .null: throw .undecodable(path: location.text, reason: "null where a value is required")
        default: throw .undecodable(path: location.text, reason: "expected an object")
        }
    }

    /// Moves past one value (whitespace before it included), checking its syntax as
    /// `JSONCursor.skipValue` does, and records every object in it. `depth` is the value's own
    /// nesting depth.
    private static func scanValue(_ cursor: inout JSONCursor, depth: Int,
                                  into index: inout ObjectIndex) throws(JSONCursor.SyntaxError) {
        guard depth < JSONCursor.maxDepth else { throw JSONCursor.SyntaxError() }
        cursor.skipWhitespace()
        switch cursor.current {
        case UInt8(ascii: "{"):
            try scanObject(&cursor, depth: depth, into: &index)
        case UInt8(ascii: "["):
            cursor.index += 1
            cursor.skipWhitespace()
            if cursor.current == UInt8(ascii: "]") { cursor.index += 1; return }
            while true {
                try scanValue(&cursor, depth: depth + 1, into: &index)
                cursor.skipWhitespace()
                switch cursor.current {
                case UInt8(ascii: ","): cursor.index += 1
                case UInt8(ascii: "]"): cursor.index += 1; return
                default: throw JSONCursor.SyntaxError()
                }
            }
        default:
            try cursor.skipValue(depth: depth)
        }
    }

    /// Moves past an object (cursor at `{`), recording where each of its members lies.
    private static func scanObject(_ cursor: inout JSONCursor, depth: Int,
                                   into index: inout ObjectIndex) throws(JSONCursor.SyntaxError) {
        let slot = index.objects.count
        index.objects.append(ObjectIndex.Object(start: cursor.index, end: 0, members: [], decodedKeys: []))
        var members: [Member] = []
        var decodedKeys: [String] = []
        members.reserveCapacity(16)
        cursor.index += 1   // {
        cursor.skipWhitespace()
        if cursor.current != UInt8(ascii: "}") {
            scanning: while true {
                cursor.skipWhitespace()
                guard cursor.current == UInt8(ascii: "\"") else { throw JSONCursor.SyntaxError() }
                let keyStart = cursor.index
                let plain = try cursor.skipString()
                let keyEnd = cursor.index
                var decodedKey = -1
                if !plain {
                    var keyCursor = JSONCursor(bytes: cursor.bytes, lenient: true, at: keyStart)
                    decodedKey = decodedKeys.count
                    decodedKeys.append(try keyCursor.string())
                }
                try cursor.expect(UInt8(ascii: ":"))
                cursor.skipWhitespace()
                let valueStart = cursor.index
                try scanValue(&cursor, depth: depth + 1, into: &index)
                members.append(Member(keyStart: keyStart + 1, keyEnd: keyEnd - 1, valueStart: valueStart,
                                      decodedKey: decodedKey))
                cursor.skipWhitespace()
                switch cursor.current {
                case UInt8(ascii: ","): cursor.index += 1
                case UInt8(ascii: "}"): break scanning
                default: throw JSONCursor.SyntaxError()
                }
            }
        }
        cursor.index += 1   // }
        index.objects[slot].end = cursor.index
        index.objects[slot].members = members
        index.objects[slot].decodedKeys = decodedKeys
    }

    // MARK: finding members

    /// The first member spelt `name` (as a dictionary keeps the first of duplicate keys).
    private func member(_ name: String) -> Member? {
        let position = name.utf8.withContiguousStorageIfAvailable { wanted -> Int in
            for (position, member) in members.enumerated() {
                if member.decodedKey >= 0 {
                    if decodedKeys[member.decodedKey] == name { return position }
                    continue
                }
                guard member.keyEnd - member.keyStart == wanted.count else { continue }
                if wanted.isEmpty { return position }
                if bytes[member.keyStart] == wanted[0],
                   memcmp(bytes.baseAddress! + member.keyStart, wanted.baseAddress!, wanted.count) == 0 {
                    return position
                }
            }
            return -1
        }
        guard let position else {
            // A key name not stored contiguously (never one of ours: they are literals).
            var contiguous = name
            contiguous.makeContiguousUTF8()
            return member(contiguous)
        }
        return position >= 0 ? members[position] : nil
    }

    func contains(_ key: String) -> Bool { member(key) != nil }

    private func childLocation(_ key: String) -> JSONLocation { location.member(key) }

    /// The first spelling present (null included); a missing key is reported by its first spelling.
    private func required(_ names: [String]) throws(OpenMarketError) -> (location: JSONLocation, start: Int) {
        for name in names {
            if let member = member(name) {
                if Kind(bytes[member.valueStart]) == .null {
                    throw .undecodable(path: childLocation(name).text, reason: "null where a value is required")
                }
                return (childLocation(name), member.valueStart)
            }
        }
        throw .undecodable(path: childLocation(names[0]).text, reason: "missing")
    }

    /// The first spelling present; nil when absent or null.
    private func optional(_ names: [String]) -> (location: JSONLocation, start: Int)? {
        for name in names {
            if let member = member(name) {
                if Kind(bytes[member.valueStart]) == .null { return nil }
                return (childLocation(name), member.valueStart)
            }
        }
        return nil
    }

    // MARK: typed members

    func int(_ names: [String]) throws(OpenMarketError) -> Int {
        let (location, start) = try required(names)
        return try int(at: start, location)
    }

    func money(_ names: [String]) throws(OpenMarketError) -> Double {
        let (location, start) = try required(names)
        guard let (number, _) = number(at: start) else {
            throw .undecodable(path: location.text, reason: "expected a number")
        }
        // Beyond any Double (a lenient parse keeps it as infinity): no price to show or compute with.
        guard number.isFinite else { throw .undecodable(path: location.text, reason: "a number beyond any amount") }
        return number
    }

    func string(_ names: [String]) throws(OpenMarketError) -> String {
        let (location, start) = try required(names)
        return try string(at: start, location)
    }

    func optionalString(_ names: [String]) throws(OpenMarketError) -> String? {
        guard let (location, start) = optional(names) else { return nil }
        return try string(at: start, location)
    }

    func bool(_ names: [String]) throws(OpenMarketError) -> Bool {
        let (location, start) = try required(names)
        return try bool(at: start, location)
    }

    func optionalBool(_ names: [String]) throws(OpenMarketError) -> Bool? {
        guard let (location, start) = optional(names) else { return nil }
        return try bool(at: start, location)
    }

    func date(_ names: [String]) throws(OpenMarketError) -> Date {
        let (location, start) = try required(names)
        return try date(at: start, location)
    }

    func optionalDate(_ names: [String]) throws(OpenMarketError) -> Date? {
        guard let (location, start) = optional(names) else { return nil }
        return try date(at: start, location)
    }

    func currency(_ names: [String]) throws(OpenMarketError) -> Currency {
        let (location, start) = try required(names)
        guard Kind(bytes[start]) == .string else {
            throw .undecodable(path: location.text, reason: "expected KRW or USD")
        }
        // The common case without building a string; anything else as `Currency(rawValue:)` sees it.
        if let raw = plainString(at: start) {
            if Self.equal(raw, "KRW") { return .KRW }
            if Self.equal(raw, "USD") { return .USD }
        }
        let text = decodedString(at: start)
        guard let currency = Currency(rawValue: text) else {
            throw .undecodable(path: location.text, reason: "expected KRW or USD, found \"\(text.prefix(20))\"")
        }
        return currency
    }

    /// Each element of a list of objects, with its path (`pages[3]`).
    func objects(_ names: [String]) throws(OpenMarketError) -> [JSONObjectReader] {
        var readers: [JSONObjectReader] = []
        try forEachElement(names) { (start, location) throws(OpenMarketError) in
            let element = try reader(valueAt: start, location: location)
            readers.append(element)
            return element.end
        }
        return readers
    }

    func optionalObject(_ names: [String]) throws(OpenMarketError) -> JSONObjectReader? {
        guard let (location, start) = optional(names) else { return nil }
        return try reader(valueAt: start, location: location)
    }

    /// A list of strings (v1 `thumbnails`, `images`).
    func strings(_ names: [String]) throws(OpenMarketError) -> [String] {
        var texts: [String] = []
        try forEachElement(names) { (start, location) throws(OpenMarketError) in
            texts.append(try string(at: start, location))
            return nil
        }
        return texts
    }

    func optionalInt(_ names: [String]) throws(OpenMarketError) -> Int? {
        guard let (location, start) = optional(names) else { return nil }
        return try int(at: start, location)
    }

    /// A time written as Unix epoch seconds with a fraction (v1 `registration_date`).
    func epochSeconds(_ names: [String]) throws(OpenMarketError) -> Date {
        let (location, start) = try required(names)
        // Years 0001…9999 only: dates outside cannot be written or shown, and arithmetic on them overflows.
        guard let (seconds, _) = number(at: start), seconds.isFinite, abs(seconds) < 253_402_300_800 else {
            throw .undecodable(path: location.text, reason: "expected seconds since 1970 as a number")
        }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Calls `body` with the start and location of each element of a list member, in order.
    /// `body` may return where the element ends (an object reader knows), sparing a second pass over it.
    func forEachElement(_ names: [String],
                        _ body: (Int, JSONLocation) throws(OpenMarketError) -> Int?) throws(OpenMarketError) {
        let (location, start) = try required(names)
        guard Kind(bytes[start]) == .array else { throw .undecodable(path: location.text, reason: "expected a list") }
        var cursor = JSONCursor(bytes: bytes, lenient: true, at: start + 1)
        cursor.skipWhitespace()
        if cursor.current == UInt8(ascii: "]") { return }
        var index = 0
        while true {
            cursor.skipWhitespace()
            let elementStart = cursor.index
            if let end = try body(elementStart, location.element(index)) {
                cursor.index = end
            } else {
                cursor.skipCheckedValue()
            }
            cursor.skipWhitespace()
            guard cursor.current == UInt8(ascii: ",") else { return }
            cursor.index += 1
            index += 1
        }
    }

    /// The member `key` when it is a number (for naming an unreadable product by its id).
    func numberMember(_ key: String) -> (value: Double, integer: Int?)? {
        guard let member = member(key) else { return nil }
        return number(at: member.valueStart)
    }

    // MARK: values

    /// The JSON kind of a value, by its first byte.
    enum Kind: Equatable {
        case object, array, string, bool, null, number
        init(_ first: UInt8) {
            switch first {
            case UInt8(ascii: "{"): self = .object
            case UInt8(ascii: "["): self = .array
            case UInt8(ascii: "\""): self = .string
            case UInt8(ascii: "t"), UInt8(ascii: "f"): self = .bool
            case UInt8(ascii: "n"): self = .null
            default: self = .number
            }
        }
    }

    private func number(at start: Int) -> (Double, Int?)? {
        guard Kind(bytes[start]) == .number else { return nil }
        var cursor = JSONCursor(bytes: bytes, lenient: true, at: start)
        return try? cursor.number()
    }

    /// A string value's raw bytes, when they are its text (no escape; UTF-8 not checked). The
    /// scan needs no bound: the document's syntax was checked whole, so a closing quote follows.
    private func plainString(at start: Int) -> UnsafeBufferPointer<UInt8>? {
        var end = start + 1
        while bytes[end] != UInt8(ascii: "\"") {
            if bytes[end] == UInt8(ascii: "\\") { return nil }
            end += 1
        }
        return UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end])
    }

    private func decodedString(at start: Int) -> String {
        var cursor = JSONCursor(bytes: bytes, lenient: true, at: start)
        return (try? cursor.string()) ?? ""
    }

    private static func equal(_ raw: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        raw.count == word.utf8CodeUnitCount && memcmp(raw.baseAddress!, word.utf8Start, raw.count) == 0
    }

    private func int(at start: Int, _ location: JSONLocation) throws(OpenMarketError) -> Int {
        guard let (number, integer) = number(at: start) else {
            throw .undecodable(path: location.text, reason: "expected a number")
        }
        if let integer { return integer }
        // A sloppy writer's `2.0` is still the whole number 2.
        guard number.rounded() == number, let whole = Int(exactly: number) else {
            throw .undecodable(path: location.text, reason: "expected a whole number, found \(number)")
        }
        return whole
    }

    private func string(at start: Int, _ location: JSONLocation) throws(OpenMarketError) -> String {
        guard Kind(bytes[start]) == .string else { throw .undecodable(path: location.text, reason: "expected a string") }
        return decodedString(at: start)
    }

    private func bool(at start: Int, _ location: JSONLocation) throws(OpenMarketError) -> Bool {
        guard Kind(bytes[start]) == .bool else {
            throw .undecodable(path: location.text, reason: "expected true or false")
        }
        return bytes[start] == UInt8(ascii: "t")
    }

    private func date(at start: Int, _ location: JSONLocation) throws(OpenMarketError) -> Date {
        guard Kind(bytes[start]) == .string else { throw .undecodable(path: location.text, reason: "expected a string") }
        // Dates are ASCII: read from the bytes without building a string (one is built for the error).
        if let raw = plainString(at: start), let date = OpenMarketJSON.parseDate(raw) { return date }
        let text = decodedString(at: start)
        guard let date = OpenMarketJSON.parseDate(text) else {
            throw .undecodable(path: location.text, reason: "not a date: \"\(text.prefix(40))\"")
        }
        return date
    }
}

/// Where a value lies in the document, written out as a path (`pages[3].price`) only when an
/// error names it. Made for every member a model reads, so it costs nothing until written out:
/// a container's path, the element's index in it, and the member's key (each optional).
struct JSONLocation {
    private let container: String
    private let index: Int?
    private let key: String?

    init(_ path: String) {
        self.init(container: path, index: nil, key: nil)
    }

    private init(container: String, index: Int?, key: String?) {
        self.container = container
        self.index = index
        self.key = key
    }

    var text: String {
        var text = container
        if let index { text += "[\(index)]" }
        if let key { text = text.isEmpty ? key : text + "." + key }
        return text
    }

    func member(_ key: String) -> JSONLocation {
        self.key == nil ? JSONLocation(container: container, index: index, key: key)
            : JSONLocation(container: text, index: nil, key: key)
    }

    func element(_ index: Int) -> JSONLocation {
        JSONLocation(container: text, index: index, key: nil)
    }
}
