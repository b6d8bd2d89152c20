import HTTPServer

/// `/static/{path...}`: the files of `Public/`, through the server's static route.
struct StaticController: Sendable {
    let configuration: PanelConfiguration
    let staticFiles: StaticFiles
    let hostAllowList: HostAllowList
    let listeningPort: ListeningPort

    /// `/static/` is answered on the server's event loop without the middlewares (no session is
    /// needed for assets). What the middlewares would do to such an answer is done here instead:
    /// the Host check decides whether the fast path may answer at all (a refused Host goes
    /// through the middlewares and gets its 421 page), and the security headers — HSTS too
    /// when serving HTTPS — are applied once per file version, in the middlewares' order.
    /// Anyone may reach them, and no session is looked up for them (`open`).
    func registerStaticFiles(into router: inout Router<PanelContext>) {
        let servesHTTPS = configuration.tls != nil
        router.staticFiles(prefix: "/static/", files: staticFiles,
                           options: PanelRouteOptions(access: .anyone, bodyLimit: .serverDefault, kind: .open), admitsHost: { [self] host in
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
}
