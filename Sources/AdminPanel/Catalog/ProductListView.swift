import HTMLTemplates

/// `products.html`: the product list (rows or cards), its search and filters, chips, the bulk
/// form and pagination. Built by `listPage`; every decision is made there, the template only shows.
struct ProductListView: PageView {
    static let template = "products"
    var view: ListView
    var listURL = ""
    var gridURL = ""
    var search = ""
    var here = ""
    var exportURL = ""
    var exportWorkbookURL = ""
    /// The same products as a workbook for editing and importing again (editors only).
    var editExport: LinkView?
    /// The same products as a sheet (`/products/sheet`, the list's query).
    var sheetURL = ""
    var products: [ProductRowView] = []
    var sortOptions: [ListOptionView] = []
    var perPageOptions: [ListOptionView] = []
    var showOptions: [ListOptionView] = []
    /// "All vendors / mine only" kept in the form but not shown: every listed product is the store's own.
    var stockOptions: [ListOptionView] = []
    var currencyOptions: [ListOptionView] = []
    var discountedChecked = false
    var totalText = ""
    var pagination: PaginationView?
    var empty: EmptyStateView?
    var unreadable: UnreadableListView?
    var copy: CopyStatusView?
    var bulk: BulkFormView?
    var salesBulk: SalesBulkView?
    var newestID = 0
    var newestURL = ""
    var newProducts: LinkView?
    var chips: FilterChipsView?
    var filtersSummary = ""
    var bulkRefusal: MessageView?
    var access = PageAccess()

    init(view: ListView) { self.view = view }

    static let templateFields = ViewFields<ProductListView>([
        .text("view") { $0.view.rawValue },
        .flag("is_list") { $0.view == .list },
        .flag("is_grid") { $0.view == .grid },
        .text("list_url") { $0.listURL },
        .text("grid_url") { $0.gridURL },
        .text("q") { $0.search },
        .flag("has_products") { !$0.products.isEmpty },
        .list("products") { $0.products },
        .text("here") { $0.here },
        .text("export_url") { $0.exportURL },
        .text("export_xlsx_url") { $0.exportWorkbookURL },
        .text("sheet_url") { $0.sheetURL },
        .optionalView("edit_export") { $0.editExport },
        .list("sort_options") { $0.sortOptions },
        .list("per_page_options") { $0.perPageOptions },
        .list("show_options") { $0.showOptions },
        .list("stock_options") { $0.stockOptions },
        .list("currency_options") { $0.currencyOptions },
        .flag("discounted_checked") { $0.discountedChecked },
        .text("total_text") { $0.totalText },
        .optionalView("pagination") { $0.pagination },
        .optionalView("empty") { $0.empty },
        .optionalView("unreadable") { $0.unreadable },
        .optionalView("copy") { $0.copy },
        .optionalView("bulk") { $0.bulk },
        .optionalView("sales_bulk") { $0.salesBulk },
        .int("newest_id") { $0.newestID },
        .text("newest_url") { $0.newestURL },
        .optionalView("new_products") { $0.newProducts },
        .optionalView("chips") { $0.chips },
        .text("filters_summary") { $0.filtersSummary },
        .optionalView("bulk_refusal") { $0.bulkRefusal },
    ] + PageAccess.fields())
}
