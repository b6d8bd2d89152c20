import HTMLTemplates

/// `revert_result.html`: what a revert did, product by product. Built by `revertResultPage`.
struct RevertResultView: PageView {
    static let template = "revert_result"
    var heading: String
    var summary: String
    var products: [RevertProductView]
    var access = PageAccess()

    static let templateFields = ViewFields<RevertResultView>([
        .text("heading") { $0.heading },
        .text("summary") { $0.summary },
        .list("products") { $0.products },
    ] + PageAccess.fields())
}
