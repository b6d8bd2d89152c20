import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns transport failures and non-2xx answers into `OpenMarketError`, with every credential
/// the call used removed from any text that came from outside.
struct ErrorMapping: Sendable {
    /// The identifier, secret, password and product secret of the call in flight.
    let credentials: [String]

    // MARK: transport failures

    func transportFailure(_ error: any Error) -> OpenMarketError {
        switch error {
        case let error as TransportError:
            switch error {
            case .timeout: return .timeout
            case .unreachable(let reason): return .unreachable(reason: redact(reason))
            }
        case let error as URLError:
            return urlFailure(error)
        case is CancellationError:
            return .unreachable(reason: "the request was cancelled")
        default:
            return .unreachable(reason: redact(String(describing: error)))
        }
    }

    private func urlFailure(_ error: URLError) -> OpenMarketError {
        switch error.code {
        case .timedOut: return .timeout
        case .cannotConnectToHost: return .unreachable(reason: "connection refused")
        case .cannotFindHost, .dnsLookupFailed: return .unreachable(reason: "host not found")
        case .networkConnectionLost: return .unreachable(reason: "the connection was lost")
        case .notConnectedToInternet: return .unreachable(reason: "no network connection")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return .unreachable(reason: "a secure connection could not be made")
        case .badServerResponse: return .unreachable(reason: "the server's answer was not valid HTTP")
        case .cancelled: return .unreachable(reason: "the request was cancelled")
        case .badURL, .unsupportedURL: return .unreachable(reason: "the API address is not a valid http(s) URL")
        default: return .unreachable(reason: "network error \(error.code.rawValue)")
        }
    }

    // MARK: HTTP answers

    /// The error for a non-2xx answer, carrying the API's (redacted) message.
    func statusFailure(_ response: TransportResponse) -> OpenMarketError {
        let message = serverMessage(response)
        switch response.status {
        case 400:
            if let field = Self.field(mentionedIn: message) {
                return .validation([FieldIssue(field: field, message: message)])
            }
            return .badRequest(message: message)
        case 401: return .unauthorized(message: message)
        case 403: return .forbidden(message: message)
        case 404: return .notFound(message: message)
        case 413: return .payloadTooLarge(message: message)
        default: return .server(status: response.status, message: message)
        }
    }

    /// The `message` of an error JSON `{"code", "message"}`; else a short plain-text body;
    /// else the status's reason phrase (HTML error pages of proxies are not shown).
    func serverMessage(_ response: TransportResponse) -> String {
        let fallback = Self.reasonPhrase(response.status)
        if case .object(let members)? = try? JSONValue.parse(response.body) {
            for key in ["message", "error", "reason"] {
                if case .string(let text)? = members[key], !text.isEmpty { return clean(text, fallback: fallback) }
            }
            return fallback
        }
        guard let text = String(data: response.body, encoding: .utf8) else { return fallback }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("<"), !trimmed.hasPrefix("{"), trimmed.count <= 300 else {
            return fallback
        }
        return clean(trimmed, fallback: fallback)
    }

    /// One line, bounded, without credentials.
    private func clean(_ text: String, fallback: String) -> String {
        let oneLine = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        let bounded = oneLine.count > 300 ? String(oneLine.prefix(299)) + "…" : oneLine
        let safe = redact(bounded)
        return safe.isEmpty ? fallback : safe
    }

    /// The same error with credentials removed from its texts.
    func redacted(_ error: OpenMarketError) -> OpenMarketError {
        switch error {
        case .validation(let issues):
            return .validation(issues.map { FieldIssue(field: $0.field, message: redact($0.message)) })
        case .badRequest(let message): return .badRequest(message: redact(message))
        case .unauthorized(let message): return .unauthorized(message: redact(message))
        case .forbidden(let message): return .forbidden(message: redact(message))
        case .notFound(let message): return .notFound(message: redact(message))
        case .payloadTooLarge(let message): return .payloadTooLarge(message: redact(message))
        case .server(let status, let message): return .server(status: status, message: redact(message))
        case .timeout: return .timeout
        case .unreachable(let reason): return .unreachable(reason: redact(reason))
        case .undecodable(let path, let reason): return .undecodable(path: redact(path), reason: redact(reason))
        }
    }

    /// Replaces each credential with "•••". A credential shorter than 4 characters would mangle
    /// ordinary words, so a text containing one is replaced by a generic sentence instead.
    func redact(_ text: String) -> String {
        var result = text
        for credential in credentials where !credential.isEmpty && result.contains(credential) {
            if credential.count < 4 { return "details withheld" }
            result = result.replacingOccurrences(of: credential, with: "•••")
        }
        return result
    }

    /// The form field a 400 message talks about, if it names one (`discounted_price must be…`).
    static func field(mentionedIn message: String) -> String? {
        let words = message.lowercased()
            .split { !($0.isLetter || $0.isNumber || $0 == "_") }
            .map(String.init)
        let aliases: [(field: String, words: Set<String>)] = [
            ("discounted_price", ["discounted_price", "discountedprice", "discount"]),
            ("thumbnail_id", ["thumbnail_id", "thumbnail"]),
            ("description", ["description", "descriptions"]),
            ("images", ["images", "image"]),
            ("currency", ["currency"]),
            ("stock", ["stock"]),
            ("price", ["price"]),
            ("name", ["name"]),
        ]
        let present = Set(words)
        return aliases.first { !$0.words.isDisjoint(with: present) }?.field
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 413: "Payload Too Large"
        case 415: "Unsupported Media Type"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "HTTP status \(status)"
        }
    }
}
