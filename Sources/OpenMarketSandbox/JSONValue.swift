import Foundation

/// A parsed JSON value that keeps the difference between whole numbers, fractions, booleans and
/// strings, so "wrong type" can be told apart from "out of range".
enum JSONValue: Decodable, Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null; return }
        // Order matters: Foundation decodes `true` only as Bool and `3.0` as the Int 3.
        if let value = try? container.decode(Bool.self) { self = .bool(value); return }
        if let value = try? container.decode(Int.self) { self = .integer(value); return }
        if let value = try? container.decode(Double.self) { self = .number(value); return }
        if let value = try? container.decode(String.self) { self = .string(value); return }
        if let value = try? container.decode([JSONValue].self) { self = .array(value); return }
        self = .object(try container.decode([String: JSONValue].self))
    }

    /// Parses `data` as a JSON object; `what` names it in the refusal ("params", "body").
    static func object(from data: Data, what: String) throws(APIFailure) -> [String: JSONValue] {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            throw .badRequest("\(what): not valid JSON")
        }
        guard case .object(let members) = value else { throw .badRequest("\(what): must be a JSON object") }
        return members
    }
}
