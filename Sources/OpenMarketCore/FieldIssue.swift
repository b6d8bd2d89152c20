/// One broken rule: the form field it belongs to (the panel's field names: `name`, `description`,
/// `price`, `currency`, `discounted_price`, `stock`, `images`, `thumbnail_id`, `secret`,
/// `password`; "" when not attributable) and a message a seller understands.
///
/// Issues of the core's own rules also carry a `code` and raw `arguments` (numbers unformatted,
/// `file` names as given) so a client can say the same thing in the seller's language; `message`
/// stays the English text. Issues taken from the API's answers have no code.
public struct FieldIssue: Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var message: String
    public var code: String?
    public var arguments: [String: String]

    public init(field: String, message: String, code: String? = nil, arguments: [String: String] = [:]) {
        self.field = field
        self.message = message
        self.code = code
        self.arguments = arguments
    }

    public var description: String { field.isEmpty ? message : "\(field): \(message)" }

    /// Two issues are the same when they name the same field with the same words; the code and
    /// arguments only serve translation.
    public static func == (lhs: FieldIssue, rhs: FieldIssue) -> Bool {
        lhs.field == rhs.field && lhs.message == rhs.message
    }
}
