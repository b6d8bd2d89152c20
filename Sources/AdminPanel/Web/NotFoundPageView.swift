import HTMLTemplates

/// `not_found.html`: the page or product does not exist.
struct NotFoundPageView: PageView {
    static let template = "not_found"
    var statusText: String
    var heading: String
    var message: String
    var access = PageAccess()

    static let templateFields = ViewFields<NotFoundPageView>([
        .text("status_text") { $0.statusText },
        .text("heading") { $0.heading },
        .text("message") { $0.message },
    ] + PageAccess.fields())
}
