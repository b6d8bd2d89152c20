import HTMLTemplates

/// `import_result.html`: each applied row done or failed, linked to its product; a retry form
/// while rows failed and the import is still open.
struct ImportResultView: PageView {
    static let template = "import_result"
    var fileName: String
    var summary: String
    var rows: [ImportResultRowView]
    var retry: ImportApplyFormView?
    /// The rows applied without the file's error rows: how many were left out, and their download.
    var leftOut: ImportLeftOutView?
    /// The fixed error rows uploaded onto the same import, with its photos, while it is live.
    var corrected: ImportCorrectedFormView?
    var access = PageAccess()

    static let templateFields = ViewFields<ImportResultView>([
        .text("file_name") { $0.fileName },
        .text("summary") { $0.summary },
        .list("rows") { $0.rows },
        .optionalView("retry") { $0.retry },
        .optionalView("left_out") { $0.leftOut },
        .optionalView("corrected") { $0.corrected },
    ] + PageAccess.fields())
}

struct ImportLeftOutView: TemplateView {
    var message: String
    var downloadURL: String

    static let templateFields: ViewFields<ImportLeftOutView> = [
        .text("message") { $0.message },
        .text("download_url") { $0.downloadURL },
    ]
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
