import OpenMarketCore

/// A failure shown to the seller as a whole page: status, a heading, a sentence, maybe a retry link.
/// `heading` and `message` are catalog keys (filled with `arguments`), so the page speaks the
/// reader's language; `detail` is technical text shown as is, under a "details" label: only what
/// came from outside (the system's or the API's own words), never a sentence of the panel's own
/// in English on a Korean page (the heading and message already say it in the reader's language).
struct PageFailure: Error, Sendable {
    var status: Int
    var heading: String
    var message: String
    var arguments: [String: String] = [:]
    var detail: String?
    var retryURL: String?

    static func notFound(_ message: String = "failure_no_page_here") -> PageFailure {
        PageFailure(status: 404, heading: "failure_not_found_heading", message: message)
    }

    static func forbidden(_ message: String) -> PageFailure {
        PageFailure(status: 403, heading: "failure_forbidden_heading", message: message)
    }

    /// How an API failure reads to a seller, and which status the panel answers with.
    init(_ error: OpenMarketError, retryURL: String?) {
        switch error {
        case .timeout:
            self.init(status: 504, heading: "failure_timeout_heading", message: "failure_timeout_message", retryURL: retryURL)
        case .unreachable(let reason):
            // A redirect or certificate the panel refused says so; the API may well be running.
            let page = UpstreamRefusal.of(reason)?.page
                ?? (heading: "failure_unreachable_heading", message: "failure_unreachable_message", arguments: [:])
            self.init(status: 502, heading: page.heading, message: page.message, arguments: page.arguments,
                      detail: reason, retryURL: retryURL)
        case .server(let status, let message):
            self.init(status: 502, heading: "failure_server_heading", message: "failure_server_message",
                      arguments: ["status": String(status)], detail: message.isEmpty ? nil : message, retryURL: retryURL)
        case .undecodable(let path, let reason):
            self.init(status: 502, heading: "failure_undecodable_heading", message: "failure_undecodable_message",
                      detail: path.isEmpty ? reason : "\(path): \(reason)", retryURL: retryURL)
        case .notFound:
            self.init(status: 404, heading: "failure_product_not_found_heading", message: "failure_product_not_found_message")
        case .forbidden:
            self.init(status: 403, heading: "failure_not_yours_heading", message: "failure_not_yours_message")
        case .unauthorized:
            self.init(status: 502, heading: "failure_unauthorized_heading", message: "failure_unauthorized_message",
                      retryURL: retryURL)
        case .payloadTooLarge:
            self.init(status: 413, heading: "failure_too_large_heading", message: "failure_api_too_large_message")
        case .badRequest(let message):
            self.init(status: 422, heading: "failure_refused_heading", message: "failure_refused_message",
                      detail: message, retryURL: retryURL)
        case .validation:
            self.init(status: 422, heading: "failure_refused_heading", message: "failure_refused_message",
                      detail: error.description, retryURL: retryURL)
        }
    }

    init(status: Int, heading: String, message: String, arguments: [String: String] = [:], detail: String? = nil,
         retryURL: String? = nil) {
        self.status = status
        self.heading = heading
        self.message = message
        self.arguments = arguments
        self.detail = detail
        self.retryURL = retryURL
    }

    /// "Heading. Message." in one line, for an alert above a form that is kept.
    func sentence(_ l: Localizer) -> String {
        l(heading, arguments) + ". " + l(message, arguments)
    }
}
