import HTTPServer

/// What the panel declares on each of its routes (`Route.options`): who may reach it, the body
/// it accepts, and how it answers.
struct PanelRouteOptions: Sendable {
    let access: RouteAccess
    let bodyLimit: RouteBodyLimit
    let kind: Kind

    enum Kind: Sendable {
        /// Failures become error pages (`Pages.respond`).
        case page
        /// Answers by itself (JSON, media, events, redirects).
        case plain
        /// Needs nobody's identity: no session lookup for assets or health.
        case open
    }
}
