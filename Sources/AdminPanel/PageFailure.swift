import OpenMarketCore

/// A failure shown to the seller as a whole page: status, a heading, a sentence, maybe a retry link.
struct PageFailure: Error, Sendable {
    var status: Int
    var heading: String
    var message: String
    var detail: String?
    var retryURL: String?

    static func notFound(_ message: String = "There is no page at this address.") -> PageFailure {
        PageFailure(status: 404, heading: "Not found", message: message)
    }

    static func forbidden(_ message: String) -> PageFailure {
        PageFailure(status: 403, heading: "Not allowed", message: message)
    }

    /// How an API failure reads to a seller, and which status the panel answers with.
    init(_ error: OpenMarketError, retryURL: String?) {
        switch error {
        case .timeout:
            self.init(status: 504, heading: "The store is slow to answer",
                      message: "The Open Market API did not answer in time. Nothing was lost; please try again in a moment.",
                      retryURL: retryURL)
        case .unreachable:
            self.init(status: 502, heading: "The store cannot be reached",
                      message: "The panel could not connect to the Open Market API. Check that it is running, then try again.",
                      detail: error.description, retryURL: retryURL)
        case .server(let status, _):
            self.init(status: 502, heading: "The store had a problem",
                      message: "The Open Market API answered with an error (HTTP \(status)). Please try again.",
                      detail: error.description, retryURL: retryURL)
        case .undecodable:
            self.init(status: 502, heading: "The store sent an unreadable answer",
                      message: "The Open Market API answered with something the panel could not read.",
                      detail: error.description, retryURL: retryURL)
        case .notFound:
            self.init(status: 404, heading: "Product not found",
                      message: "This product does not exist. It may have been deleted.")
        case .forbidden:
            self.init(status: 403, heading: "Not your product",
                      message: "This product belongs to another vendor, so this panel cannot change or delete it.")
        case .unauthorized:
            self.init(status: 502, heading: "The store refused the panel's vendor",
                      message: "The Open Market API did not accept the vendor identifier and secret this panel was started with.",
                      retryURL: retryURL)
        case .payloadTooLarge:
            self.init(status: 413, heading: "Upload too large",
                      message: "The store refused the upload as too large. Use fewer or smaller images.")
        case .badRequest, .validation:
            self.init(status: 422, heading: "The store refused the request", message: error.description,
                      retryURL: retryURL)
        }
    }

    init(status: Int, heading: String, message: String, detail: String? = nil, retryURL: String? = nil) {
        self.status = status
        self.heading = heading
        self.message = message
        self.detail = detail
        self.retryURL = retryURL
    }
}
