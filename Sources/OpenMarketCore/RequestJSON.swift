import Foundation

/// A JSON request body with stable output: keys sorted, slashes unescaped, money as JSON numbers.
enum RequestJSON: Encodable {
    case string(String)
    case number(Double)
    case integer(Int)

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        }
    }

    static func object(_ fields: [String: RequestJSON]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Only strings, integers and numbers the rules checked to be finite: cannot fail.
        return (try? encoder.encode(fields)) ?? Data("{}".utf8)
    }
}
