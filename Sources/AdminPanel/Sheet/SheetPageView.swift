import HTMLTemplates

/// `sheet.html`: products as a table of name, price, discount and stock, with inputs for the
/// panel vendor's own products when the visitor may write. Built by `sheetPage` and `saveSheet`;
/// the template only shows.
struct SheetPageView: PageView {
    static let template = "sheet"
    var backURL = ""
    /// The list's query, carried through the save so the answer shows the same products.
    var query = ""
    var csrfToken = ""
    /// True when at least one row has inputs (the save button and the script's hooks).
    var editable = false
    var rows: [SheetRowView] = []
    var totalText = ""
    var pagination: PaginationView?
    var perPageLinks: [PerPageLinkView] = []
    var outcome: SheetOutcomeView?
    var problems: SheetProblemsView?
    var unavailable: TextView?
    var empty: TextView?
    var access = PageAccess()

    static let templateFields = ViewFields<SheetPageView>([
        .text("back_url") { $0.backURL },
        .text("query") { $0.query },
        .text("csrf_token") { $0.csrfToken },
        .flag("editable") { $0.editable },
        .flag("has_rows") { !$0.rows.isEmpty },
        .list("rows") { $0.rows },
        .text("total_text") { $0.totalText },
        .optionalView("pagination") { $0.pagination },
        .list("per_page_links") { $0.perPageLinks },
        .optionalView("outcome") { $0.outcome },
        .optionalView("problems") { $0.problems },
        .optionalView("unavailable") { $0.unavailable },
        .optionalView("empty") { $0.empty },
    ] + PageAccess.fields())
}

/// One product: `<tr data-sheet-row="{id}">` with its four cells.
struct SheetRowView: TemplateView {
    var id: Int
    var cells: [SheetCellView]
    /// Why this product was not saved (deleted meanwhile, the API failed), on the row.
    var failure: String?

    static let templateFields: ViewFields<SheetRowView> = [
        .int("id") { $0.id },
        .list("cells") { $0.cells },
        .optionalText("failure") { $0.failure },
    ]
}

/// One cell: an input (`{id}.{field}`, `data-sheet-cell`, the hidden `{id}.was.{field}`) or,
/// for another vendor's product or a viewer, the value as text.
struct SheetCellView: TemplateView {
    var id: Int
    var field: String
    /// The column's name, for the phone's card layout and the input's label.
    var label: String
    var editable: Bool
    /// As typed (or loaded), in the input; as shown, in a read-only cell.
    var value: String
    var was = ""
    /// `₩` or `$` before an amount.
    var unit: String?
    var changed = false
    var saved = false
    var error: String?
    var conflict: String?
    /// The row's failure, shown in its first cell.
    var rowFailure: String?

    static let templateFields: ViewFields<SheetCellView> = [
        .int("id") { $0.id },
        .text("field") { $0.field },
        .text("label") { $0.label },
        .flag("editable") { $0.editable },
        .text("value") { $0.value },
        .text("was") { $0.was },
        .optionalText("unit") { $0.unit },
        .flag("changed") { $0.changed },
        .flag("saved") { $0.saved },
        .optionalText("error") { $0.error },
        .optionalText("conflict") { $0.conflict },
        .optionalText("row_failure") { $0.rowFailure },
        .flag("is_name") { $0.field == "name" },
        .flag("is_amount") { $0.field == "price" || $0.field == "discounted_price" },
    ]
}

/// The save's summary: `role="status"` when everything was saved, `role="alert"` when anything
/// failed or conflicted.
struct SheetOutcomeView: TemplateView {
    var alert: Bool
    var message: String
    var items: [TextView]

    static let templateFields: ViewFields<SheetOutcomeView> = [
        .flag("alert") { $0.alert },
        .text("message") { $0.message },
        .list("items") { $0.items },
        .flag("has_items") { !$0.items.isEmpty },
    ]
}

/// The refused save (422): every invalid cell, linked to it.
struct SheetProblemsView: TemplateView {
    var heading: String
    var items: [SheetProblemView]

    static let templateFields: ViewFields<SheetProblemsView> = [
        .text("heading") { $0.heading },
        .list("items") { $0.items },
    ]
}

struct SheetProblemView: TemplateView {
    var cellID: String
    var message: String

    static let templateFields: ViewFields<SheetProblemView> = [
        .text("cell_id") { $0.cellID },
        .text("message") { $0.message },
    ]
}

/// "20 · 50 · 100 · 200 rows": the page sizes a sheet offers.
struct PerPageLinkView: TemplateView {
    var url: String
    var size: Int
    var current: Bool

    static let templateFields: ViewFields<PerPageLinkView> = [
        .text("url") { $0.url },
        .int("size") { $0.size },
        .flag("current") { $0.current },
    ]
}
