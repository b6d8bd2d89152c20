import Foundation
import OpenMarketCore

/// Request bodies are read with the client core's JSON parser (one parser in the package).
extension JSONValue {
    /// Parses `data` as a JSON object; `what` names it in the refusal ("params", "body").
    /// Stricter than the core's reading of API answers on one point: text that is not UTF-8 is
    /// refused rather than repaired, so a bad byte never slips into a stored product.
    static func object(from data: Data, what: String) throws(APIFailure) -> [String: JSONValue] {
        // A leading byte-order mark is tolerated, as JSONDecoder did.
        let text = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
        guard String(data: text, encoding: .utf8) != nil, let value = try? JSONValue.parse(text) else {
            throw .badRequest("\(what): not valid JSON")
        }
        guard case .object(let members) = value else { throw .badRequest("\(what): must be a JSON object") }
        return members
    }

    var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}
