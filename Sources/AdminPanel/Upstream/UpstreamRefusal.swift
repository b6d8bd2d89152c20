import HTTPClient

/// Two ways the panel itself refuses an upstream answer, told apart from other unreachable
/// APIs so the error page can say what happened in the reader's language (the technical
/// reason stays below it, as for every unreachable API): a redirect it will not follow, and
/// a TLS certificate it cannot trust. The reason texts are made here and read back here.
enum UpstreamRefusal: Equatable {
    case redirect(status: Int)
    case certificate

    /// The reason for a 3xx, naming only the other address's origin (a path or query could
    /// carry a token).
    static func redirectReason(status: Int, target: String?) -> String {
        var reason = "it answered HTTP \(status), trying to redirect the panel"
        if let target { reason += " to \(target)" }
        return reason + "; redirects are not followed, so nothing was sent there"
    }

    /// What `reason` (of `OpenMarketError.unreachable`) says the panel refused, if anything.
    static func of(_ reason: String) -> UpstreamRefusal? {
        if reason.contains(HTTPClientError.certificateRefused) { return .certificate }
        let prefix = "it answered HTTP "
        guard reason.hasPrefix(prefix), reason.contains("trying to redirect the panel"),
              let status = Int(reason.dropFirst(prefix.count).prefix(3)) else { return nil }
        return .redirect(status: status)
    }

    /// The error page's heading and message keys (`upstream.*.json`) and their arguments.
    var page: (heading: String, message: String, arguments: [String: String]) {
        switch self {
        case .redirect(let status): ("upstream_redirect_heading", "upstream_redirect_message", ["status": String(status)])
        case .certificate: ("upstream_certificate_heading", "upstream_certificate_message", [:])
        }
    }
}
