import HTMLTemplates

/// `import_result.html`: each applied row done or failed, linked to its product; a retry form
/// while rows failed and the import is still open.
struct ImportResultView: PageView {
    static let template = "import_result"
    var fileName: String
    var summary: String
    var rows: [ImportResultRowView]
    var retry: ImportApplyFormView?
    var access = PageAccess()

    static let templateFields = ViewFields<ImportResultView>([
        .text("file_name") { $0.fileName },
        .text("summary") { $0.summary },
        .list("rows") { $0.rows },
        .optionalView("retry") { $0.retry },
    ] + PageAccess.fields())
}

/// One applied row: done or failed, and why.
struct ImportResultRowView: TemplateView {
    var line: Int
    var done: Bool
    var name: String
    var product: ImportProductLinkView?
    var reason: String

    static let templateFields: ViewFields<ImportResultRowView> = [
        .int("line") { $0.line },
        .text("outcome") { $0.done ? "done" : "failed" },
        .flag("done") { $0.done },
        .text("name") { $0.name },
        .optionalView("product") { $0.product },
        .text("reason") { $0.reason },
    ]
}
