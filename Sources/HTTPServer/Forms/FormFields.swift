/// Named text fields from a form, in order; a name may repeat.
public struct FormFields: Sendable, Equatable {
    public private(set) var items: [Item]

    public struct Item: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) { self.name = name; self.value = value }
    }

    public init(_ items: [(String, String)] = []) {
        self.items = items.map { Item(name: $0.0, value: $0.1) }
    }

    /// The first value for `name`.
    public subscript(name: String) -> String? { items.first { $0.name == name }?.value }

    public func all(_ name: String) -> [String] { items.filter { $0.name == name }.map(\.value) }

    public var isEmpty: Bool { items.isEmpty }

    mutating func append(_ name: String, _ value: String) { items.append(Item(name: name, value: value)) }
}

/// Limits for `application/x-www-form-urlencoded` bodies.
public struct FormLimits: Sendable {
    public var maxFields: Int
    /// Longest decoded name or value.
    public var maxFieldBytes: Int

    public init(maxFields: Int = 256, maxFieldBytes: Int = 64 * 1024) {
        self.maxFields = maxFields
        self.maxFieldBytes = maxFieldBytes
    }
}
