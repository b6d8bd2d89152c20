import HTTPServer

/// Headers every response carries, and the Origin check every POST passes.
enum SecurityHeaders {
    static let contentSecurityPolicy = "default-src 'self'; img-src 'self' data: blob:; script-src 'self'; "
        + "style-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"

    static func apply(to response: inout HTTPResponse) {
        response.headers["Content-Security-Policy"] = contentSecurityPolicy
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Cross-Origin-Opener-Policy"] = "same-origin"
        response.headers["Permissions-Policy"] = "camera=(), microphone=(), geolocation=()"
        // Pages may hold a CSRF token or a flash: never cached. Static files and media set their own.
        if response.headers["Cache-Control"] == nil { response.headers["Cache-Control"] = "no-store" }
    }

    static let middleware: Middleware = { request, next in
        var response = try await next(request)
        apply(to: &response)
        return response
    }

    /// An `Origin` header, when a browser sends one, must name this panel (scheme and the Host
    /// the browser used); a cross-site form post therefore fails before its body is read.
    static func originIsAllowed(_ request: HTTPRequest) -> Bool {
        guard let origin = request.headers["Origin"] else { return true }
        guard let host = request.headers["Host"], !host.isEmpty else { return false }
        let lowered = origin.lowercased()
        return lowered == "http://" + host.lowercased() || lowered == "https://" + host.lowercased()
    }
}

extension PanelApp {
    func originCheckMiddleware() -> Middleware {
        { [self] request, next in
            guard request.method == "POST", !SecurityHeaders.originIsAllowed(request) else { return try await next(request) }
            return await errorPage(PageFailure(status: 403, heading: "failure_origin_heading", message: "failure_origin_message"),
                                   request: request)
        }
    }
}
