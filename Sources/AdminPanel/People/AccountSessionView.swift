import HTMLTemplates

/// One of your sessions on the account page; `handle` (a prefix of the stored hash, never the
/// id) names it in the revoke form's address.
struct AccountSessionView: TemplateView {
    var handle: String
    var address: String
    var browser: String
    var lastSeen: String
    /// This browser's own session.
    var current: Bool

    static let templateFields: ViewFields<AccountSessionView> = [
        .text("handle") { $0.handle },
        .text("address") { $0.address },
        .text("browser") { $0.browser },
        .text("last_seen") { $0.lastSeen },
        .flag("current") { $0.current },
    ]
}
