import HTTPServer

/// `/static/{path...}`: the files of `Public/`, through the server's static route.
struct StaticController: Sendable {
    let configuration: PanelConfiguration
    let staticFiles: StaticFiles
    let hostAllowList: HostAllowList
    let listeningPort: ListeningPort

    /// The route table's handler: one asset (the same answer the fast path gives).
    func asset(_ request: HTTPRequest) -> HTTPResponse {
        staticFiles.response(for: request.pathParameters["path"] ?? "", request: request)
    }

    /// `/static/` is answered on the server's event loop without the middlewares (no session is
    /// needed for assets). What the middlewares would do to such an answer is done here instead:
    /// the Host check decides whether the fast path may answer at all (a refused Host goes
    /// through the middlewares and gets its 421 page), and the security headers — HSTS too
    /// when serving HTTPS — are applied once per file version, in the middlewares' order.
    func registerStaticFiles(into router: inout Router) {
        let servesHTTPS = configuration.tls != nil
        router.staticFiles(prefix: "/static/", files: staticFiles, admitsHost: { [self] host in
            // The same answer for the same Host, as the route requires: the allow-list and the
            // port are fixed once the panel listens.
            guard let host, !host.isEmpty else { return false }
            return hostAllowList.allows(host: host, port: listeningPort.value)
        }, decorate: { response in
            // The innermost middleware applies first: SecurityHeaders, then HTTPSHeaders.
            SecurityHeaders.apply(to: &response)
            if servesHTTPS { HTTPSHeaders.apply(to: &response) }
        })
    }

    /// Its routes, each with who may reach it and its body limit (`RouteTableTests` lists them all).
    static func register(on routes: inout RouteTable) {
        routes.get(PanelApp.staticPattern, open: \.controllers.staticController) { $0.asset($1) }
    }
}
