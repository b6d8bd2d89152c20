/// Everything that can go wrong talking to the Open Market API, typed so the panel can react
/// (re-show a form, count a wrong password, show "not found"). Descriptions are sentences for a
/// seller and never contain the vendor identifier or secret: the client redacts server messages
/// before it puts them in an error.
public enum OpenMarketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Local rules, or a 400 from the API attributed to a field (field "" when unknown).
    case validation([FieldIssue])
    /// A 400 the API gave that is not attributable to a field.
    case badRequest(message: String)
    /// 401: unknown identifier, or a secret/password that does not match.
    case unauthorized(message: String)
    /// 403: the product belongs to another vendor.
    case forbidden(message: String)
    /// 404.
    case notFound(message: String)
    /// 413: the whole request was too large.
    case payloadTooLarge(message: String)
    /// 5xx or another unexpected status.
    case server(status: Int, message: String)
    /// The API took longer than the configured timeout.
    case timeout
    /// Connection refused, host not found, connection reset…
    case unreachable(reason: String)
    /// An answer this client could not read; `path` names the key, e.g. `pages[3].price`.
    case undecodable(path: String, reason: String)

    /// The field issues of a `.validation` error (empty for every other case).
    public var fieldIssues: [FieldIssue] {
        if case .validation(let issues) = self { return issues }
        return []
    }

    public var description: String {
        switch self {
        case .validation(let issues):
            let details = issues.map { $0.field.isEmpty ? $0.message : "\($0.field): \($0.message)" }
            return issues.isEmpty
                ? "Some values are not valid."
                : "Some values are not valid. " + details.joined(separator: " ")
        case .badRequest(let message):
            return "The Open Market API refused the request: \(message)"
        case .unauthorized(let message):
            return "The vendor identifier or password was not accepted (\(message))."
        case .forbidden(let message):
            return "This product belongs to another vendor, so it cannot be changed here (\(message))."
        case .notFound(let message):
            return "The product was not found; it may have been deleted (\(message))."
        case .payloadTooLarge(let message):
            return "The upload is too large for the Open Market API; use fewer or smaller images (\(message))."
        case .server(let status, let message):
            return "The Open Market API answered with an error (HTTP \(status)): \(message)"
        case .timeout:
            return "The Open Market API did not answer in time. Please try again."
        case .unreachable(let reason):
            return "The Open Market API could not be reached (\(reason))."
        case .undecodable(let path, let reason):
            let place = path.isEmpty ? "" : " at \(path)"
            return "The Open Market API sent an answer this app could not read\(place): \(reason)."
        }
    }
}
