import Foundation
import HTTPServer

/// What a panel served over HTTPS adds to every response: HSTS, so a browser that has seen the
/// panel never again sends a request (or a cookie) to it in clear, and `Secure` on every cookie,
/// so the session cookie cannot leak onto plain HTTP.
enum HTTPSHeaders {
    static let strictTransportSecurity = "max-age=31536000"

    static let middleware: RouteMiddleware<PanelContext> = { request, context, next in
        var response = try await next(request, context)
        apply(to: &response)
        return response
    }

    static func apply(to response: inout HTTPResponse) {
        response.headers["Strict-Transport-Security"] = strictTransportSecurity
        let cookies = response.headers.values("Set-Cookie")
        guard !cookies.isEmpty else { return }
        response.headers.remove("Set-Cookie")
        for cookie in cookies { response.headers.add("Set-Cookie", secured(cookie)) }
    }

    /// A `Set-Cookie` value with the `Secure` attribute (added once).
    static func secured(_ cookie: String) -> String {
        let attributes = cookie.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return attributes.contains("secure") ? cookie : cookie + "; Secure"
    }
}
