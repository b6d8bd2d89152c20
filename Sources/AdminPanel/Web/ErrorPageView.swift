import HTMLTemplates

/// `error.html`: what went wrong, and what to do next.
struct ErrorPageView: PageView {
    static let template = "error"
    var statusText: String
    var heading: String
    var message: String
    var detail: TextView?
    var retry: LinkView?
    var access = PageAccess()

    static let templateFields = ViewFields<ErrorPageView>([
        .text("status_text") { $0.statusText },
        .text("heading") { $0.heading },
        .text("message") { $0.message },
        .optionalView("detail") { $0.detail },
        .optionalView("retry") { $0.retry },
    ] + PageAccess.fields())
}
