import HTTPServer

/// Headers every response carries.
enum SecurityHeaders {
    static let contentSecurityPolicy = "default-src 'self'; img-src 'self' data: blob:; script-src 'self'; "
        + "style-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"

    /// Serialized once: set on every response as one block of bytes.
    static let block = HeaderBlock([
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "same-origin"),
        ("X-Frame-Options", "DENY"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Permissions-Policy", "camera=(), microphone=(), geolocation=()"),
    ])

    static func apply(to response: inout HTTPResponse) {
        response.headers.set(block)
        // Pages may hold a CSRF token or a flash: never cached. Static files and media set their own.
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
    }

    static let middleware: RouteMiddleware<PanelContext> = { request, context, next in
        var response = try await next(request, context)
        apply(to: &response)
        return response
    }
}
