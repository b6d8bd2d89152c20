/// One broken rule: the form field it belongs to (the panel's field names: `name`, `description`,
/// `price`, `currency`, `discounted_price`, `stock`, `images`, `thumbnail_id`, `secret`,
/// `password`; "" when not attributable) and a message a seller understands.
public struct FieldIssue: Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { field.isEmpty ? message : "\(field): \(message)" }
}
