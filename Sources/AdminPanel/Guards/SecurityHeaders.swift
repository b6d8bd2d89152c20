import HTTPServer

/// Headers every response carries.
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
}
