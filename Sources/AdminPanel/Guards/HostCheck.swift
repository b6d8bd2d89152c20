import HTMLTemplates
import HTTPServer

extension PanelApp {
    /// Every request, `/healthz` included, must name the panel in its `Host` header (see
    /// `HostAllowList`); anything else gets a 421 page that says how to allow the name.
    func hostCheckMiddleware() -> RouteMiddleware<PanelContext> {
        { [self] request, context, next in
            guard let host = request.headers["Host"], !host.isEmpty else {
                // HTTP/1.1 requires Host; the server already refuses its absence, this covers HTTP/1.0.
                return .text("Bad request: the Host header is missing.", status: 400)
            }
            guard hostAllowList.allows(host: host, port: listeningPort.value) else {
                return Self.misdirectedPage(host: host)
            }
            return try await next(request, context)
        }
    }

    /// A POST's `Origin`, when sent, must be one of the panel's own names (`null` and foreign
    /// origins are refused) — compared with the allow-list, never with the request's `Host` —
    /// and `https://` when the panel serves HTTPS.
    func originCheckMiddleware() -> RouteMiddleware<PanelContext> {
        let servesHTTPS = configuration.tls != nil
        return { [self] request, routed, next in
            guard request.method == "POST", let origin = request.headers["Origin"],
                  !hostAllowList.allows(origin: origin, port: listeningPort.value, servesHTTPS: servesHTTPS)
            else { return try await next(request, routed) }
            let context = await visitors.context(for: request, access: routed.access)
            return pages.errorPage(PageFailure(status: 403, heading: "failure_origin_heading", message: "failure_origin_message"),
                                   context: context)
        }
    }

    /// 421 Misdirected Request: short, self-contained (no session, no templates), names the flag.
    static func misdirectedPage(host: String) -> HTTPResponse {
        let shown = HTMLEscaping.escape(String(host.prefix(200)))
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Unknown host name · OpenMarket Admin</title></head>
            <body><main><h1>This panel does not answer to “\(shown)”</h1>
            <p>The panel only answers to its own names, so other web pages cannot reach it by pointing
            a name of theirs at this machine. If this is a name you use for the panel, start it with
            <code>--allowed-host \(shown)</code> (or set <code>OPENMARKET_ALLOWED_HOSTS</code>).</p></main></body></html>
            """
        var response = HTTPResponse.html(html, status: 421)
        response.headers["Connection"] = "close"
        return response
    }
}
