import HTTPServer

/// Every 429 the panel answers carries `Retry-After` (RFC 6585 asks for it, and clients such
/// as scripts and browsers' retry logic need it). Handlers that know the exact wait set it
/// themselves; any other 429 gets `fallback` seconds, the longest wait the limits can impose.
enum RetryAfter {
    static func middleware(fallback: Int) -> RouteMiddleware<PanelContext> {
        { request, context, next in
            var response = try await next(request, context)
            if response.status == 429, response.headers["Retry-After"] == nil {
                response.headers["Retry-After"] = String(max(1, fallback))
            }
            return response
        }
    }
}
