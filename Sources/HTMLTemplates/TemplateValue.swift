import Foundation

/// The data a template sees. An explicit value tree instead of reflection: views build it once,
/// rendering is a walk with dictionary look-ups (Mirror-based engines cost ~3x on our pages).
public indirect enum TemplateValue: Sendable, Equatable {
    case string(String)
    case bool(Bool)
    case int(Int)
    case list([TemplateValue])
    case object([String: TemplateValue])
    /// Markup built by our own code and already safe; the only value ever written unescaped.
    case trustedHTML(String)
    case null

    /// Sections skip falsy values: false, null, empty lists and empty strings.
    var isTruthy: Bool {
        switch self {
        case .bool(let flag): return flag
        case .null: return false
        case .list(let items): return !items.isEmpty
        case .string(let text): return !text.isEmpty
        case .int, .object, .trustedHTML: return true
        }
    }

    /// The text a variable tag writes (before escaping).
    var text: String {
        switch self {
        case .string(let text), .trustedHTML(let text): return text
        case .int(let number): return String(number)
        case .bool(let flag): return flag ? "true" : ""
        case .list, .object, .null: return ""
        }
    }

    subscript(key: String) -> TemplateValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }
}

extension TemplateValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(arrayLiteral elements: TemplateValue...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, TemplateValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}

extension TemplateValue {
    /// `nil` becomes `.null`, so optional model fields map without ceremony.
    public static func optional(_ text: String?) -> TemplateValue { text.map(TemplateValue.string) ?? .null }
}
