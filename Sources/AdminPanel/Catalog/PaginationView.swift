import HTMLTemplates

/// The list's page links (`Pagination.view`).
struct PaginationView: TemplateView {
    var previous: LinkView?
    var next: LinkView?
    var pages: [PageNumberView]
    static let templateFields: ViewFields<PaginationView> = [
        .optionalView("prev") { $0.previous },
        .optionalView("next") { $0.next },
        .list("pages") { $0.pages },
    ]
}

/// A numbered page link, or a gap ("…") where pages are skipped.
struct PageNumberView: TemplateView {
    var gap: Bool
    var number = 0
    var url = ""
    var current = false
    static let templateFields: ViewFields<PageNumberView> = [
        .flag("gap") { $0.gap },
        .int("number") { $0.number },
        .text("url") { $0.url },
        .flag("current") { $0.current },
    ]
}
