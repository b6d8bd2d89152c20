/// An ordered list of header fields with case-insensitive names.
///
/// Every way in (`init`, `add`, the subscript) cleans its input, so a value taken from a user
/// can never smuggle CR, LF or NUL onto the wire: names that are not tokens are dropped, and
/// CR, LF and NUL are removed from values.
public struct HTTPHeaders: Sendable, Sequence, Equatable {
    public typealias Element = (name: String, value: String)

    private(set) var fields: [Element] = []

    public init(_ pairs: [(String, String)] = []) {
        fields.reserveCapacity(pairs.count)
        for (name, value) in pairs { add(name, value) }
    }

    /// For the request parser, which has already validated every byte.
    init(validated fields: [Element]) { self.fields = fields }

    /// The first value for `name`; setting replaces all values (nil removes them).
    public subscript(name: String) -> String? {
        get { fields.first { ASCII.equalsIgnoringCase($0.name, name) }?.value }
        set {
            remove(name)
            if let newValue { add(name, newValue) }
        }
    }

    public func values(_ name: String) -> [String] {
        fields.filter { ASCII.equalsIgnoringCase($0.name, name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool {
        fields.contains { ASCII.equalsIgnoringCase($0.name, name) }
    }

    public mutating func add(_ name: String, _ value: String) {
        guard ASCII.isToken(name) else { return }
        fields.append((name, Self.sanitized(value)))
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { ASCII.equalsIgnoringCase($0.name, name) }
    }

    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Element]> { fields.makeIterator() }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    /// Removes the bytes that could end a header line or truncate it in C code.
    static func sanitized(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == ASCII.cr || $0 == ASCII.lf || $0 == 0 }) else { return value }
        return String(value.unicodeScalars.filter { $0 != "\r" && $0 != "\n" && $0 != "\0" })
    }
}
