import HTMLTemplates

/// `import_preview.html`: what the file would do, row by row; the apply form only when nothing
/// is in error and something is left to send.
struct ImportPreviewView: PageView {
    static let template = "import_preview"
    var fileName: String
    var summary: String
    var rows: [ImportPreviewRowView]
    /// The file's own problems (a missing column, a repeated id), in the reader's language.
    var problems: [TextView]
    var hasProblems: Bool
    var nothingToDo: Bool
    var apply: ImportApplyFormView?
    /// The error rows as links at the top, with "show errors only" and their download.
    var errors: ImportErrorListView?
    /// Why a corrected file was refused (the preview stays as it was).
    var alert: MessageView?
    var corrected: ImportCorrectedFormView?
    var access = PageAccess()

    static let templateFields = ViewFields<ImportPreviewView>([
        .text("file_name") { $0.fileName },
        .text("summary") { $0.summary },
        .list("rows") { $0.rows },
        .flag("has_rows") { !$0.rows.isEmpty },
        .list("problems") { $0.problems },
        .flag("has_problems") { $0.hasProblems },
        .flag("nothing_to_do") { $0.nothingToDo },
        .optionalView("apply") { $0.apply },
        .optionalView("errors") { $0.errors },
        .optionalView("alert") { $0.alert },
        .optionalView("corrected") { $0.corrected },
    ] + PageAccess.fields())
}

/// The preview's error rows, each a link to its row (`#import-row-{line}`) with its reasons.
struct ImportErrorListView: TemplateView {
    var heading: String
    var links: [ImportErrorLinkView]
    var errorsOnly: Bool
    var showErrorsURL: String
    var showAllURL: String
    var downloadURL: String
    /// The preview takes a corrected file (it is within its 24 hours).
    var canCorrect: Bool

    static let templateFields: ViewFields<ImportErrorListView> = [
        .text("heading") { $0.heading },
        .list("links") { $0.links },
        .flag("errors_only") { $0.errorsOnly },
        .text("show_errors_url") { $0.showErrorsURL },
        .text("show_all_url") { $0.showAllURL },
        .text("download_url") { $0.downloadURL },
        .flag("can_correct") { $0.canCorrect },
    ]
}

struct ImportErrorLinkView: TemplateView {
    var line: Int
    var label: String
    var reason: String

    static let templateFields: ViewFields<ImportErrorLinkView> = [
        .int("line") { $0.line },
        .text("label") { $0.label },
        .text("reason") { $0.reason },
    ]
}

/// The form for a corrected file on a preview, or on its result after the rows without errors
/// were applied: the file again, photos only if new ones are needed (the preview's own are kept).
struct ImportCorrectedFormView: TemplateView {
    var action: String
    var csrfToken: String
    var keptPhotos: Int
    var keptLabel: String
    /// What the upload does: on a preview it replaces it; after an apply it previews the fixed error rows.
    var hint: String

    static let templateFields: ViewFields<ImportCorrectedFormView> = [
        .text("action") { $0.action },
        .text("csrf_token") { $0.csrfToken },
        .flag("has_kept_photos") { $0.keptPhotos > 0 },
        .text("kept_label") { $0.keptLabel },
        .text("hint") { $0.hint },
    ]
}

/// One record of the file: its outcome, the changes it makes (old → new) and the rules it breaks.
struct ImportPreviewRowView: TemplateView {
    var line: Int
    var outcome: String
    var outcomeLabel: String
    var isError: Bool
    var name: String
    var product: ImportProductLinkView?
    var changes: [ImportChangeView]
    var issues: [TextView]

    static let templateFields: ViewFields<ImportPreviewRowView> = [
        .int("line") { $0.line },
        .text("outcome") { $0.outcome },
        .text("outcome_label") { $0.outcomeLabel },
        .flag("is_error") { $0.isError },
        .text("name") { $0.name },
        .optionalView("product") { $0.product },
        .list("changes") { $0.changes },
        .list("issues") { $0.issues },
    ]
}

/// `{{field}}: <del>{{old}}</del> → {{new}}`; the old value only where there was one.
struct ImportChangeView: TemplateView {
    var field: String
    var old: String
    var new: String
    var hasOld: Bool

    static let templateFields: ViewFields<ImportChangeView> = [
        .text("field") { $0.field },
        .text("old") { $0.old },
        .text("new") { $0.new },
        .flag("has_old") { $0.hasOld },
    ]
}

/// The product a row names, linked (`{{href}}`); the link's words are the row's `{{name}}`.
struct ImportProductLinkView: TemplateView {
    var id: Int
    var href: String { "/products/\(id)" }

    static let templateFields: ViewFields<ImportProductLinkView> = [
        .text("href") { $0.href },
    ]
}

/// The form that sends the import (or its failed rows again), with the progress bar's data.
struct ImportApplyFormView: TemplateView {
    var importID: String
    var csrfToken: String
    /// The button's words (the preview names the row count; the result page's button has its own).
    var label: String
    var total: Int
    /// Applies only the rows without errors (`skip_errors=1`): the preview has error rows.
    var skipErrors: Bool = false
    /// What applying leaves out (the error rows), said beside the button.
    var leftOut: String? = nil

    static let templateFields: ViewFields<ImportApplyFormView> = [
        .text("action") { "/products/import/\($0.importID)/apply" },
        .text("status_url") { "/products/import/\($0.importID)/status.json" },
        .text("csrf_token") { $0.csrfToken },
        .text("label") { $0.label },
        .int("total") { $0.total },
        .flag("skip_errors") { $0.skipErrors },
        .optionalView("left_out") { $0.leftOut.map(TextView.init) },
    ]
}
