// fuzz-module-of: ProductPresenter.swift
// Fuzz target: the panel's reading of API answers, end to end without a network. The input is
// taken as a list answer and as a detail answer, in v2 (either spelling) and in v1, and goes
// through the models, the presenters and the typed page views the handlers build, rendered in the
// frame — list (live and from a local-copy snapshot, sorted and filtered), detail, edit form,
// duplicate (register form), delete page —
// the CSV row, the unreadable-product placeholders and the bulk price arithmetic. Nothing may
// trap. Run from the repository root (scripts/fuzz does): the real templates are loaded once.
import Foundation
import HTMLTemplates
import OpenMarketCore

/// Never called: the fuzzed code reads answers, it does not fetch them.
private struct NoTransport: HTTPTransport {
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        throw OpenMarketError.unreachable(reason: "fuzzing")
    }
}

/// One panel, built once per process (templates, catalogs, presenter) in a scratch DATA folder.
private let fuzzPanel: PanelApp = {
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-panel-\(getpid())")
    let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    var configuration = PanelConfiguration(
        api: ClientConfiguration(baseURL: URL(string: "http://127.0.0.1:9")!, dialect: .v2a, identifier: "fuzz", secret: "fuzz"),
        vendorID: 7, publicDirectory: root.appendingPathComponent("Public"),
        templatesDirectory: root.appendingPathComponent("Templates"))
    configuration.dataDirectory = data
    configuration.accessLog = nil
    do {
        return try PanelApp(configuration: configuration, transport: NoTransport())
    } catch {
        fuzzCheck(false, "the panel could not be built for fuzzing (run from the repository root): \(error)")
        fatalError()
    }
}()

private let adjustments = ["+10%", "-10%", "+1000", "-500", "-99.99%", "+1000%"].compactMap(PriceAdjustment.parse)
private let views: [CatalogQuery] = ([
    [:], ["sort": "price"], ["sort": "-price"], ["sort": "name"], ["sort": "stock"], ["stock": "sold-out"],
    ["q": "a"], ["currency": "USD", "discounted": "1"], ["view": "grid", "page": "3"],
] as [[String: String]]).map { values in CatalogQuery({ values[$0] }) }

@_cdecl("fuzz_panel_answers")
public func fuzzPanelAnswers(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let app = fuzzPanel
    // One language and one view per input, chosen by its bytes: every page is still fuzzed over a
    // run, and an input costs one render of each page, not eighteen (executions per second matter).
    let pick = bytes.reduce(0) { $0 &+ Int($1) }
    let l = Localizer(catalog: app.pages.renderer.catalogs[Language.allCases[pick % Language.allCases.count]])
    let query = views[pick % views.count]
    let started = Date()

    // Lists: v2 (either spelling) and v1, as the client core reads them.
    var lists: [(items: [ProductListItem], unreadable: [UnreadableProduct])] = []
    if let page = try? OpenMarketJSON.decodeListPage(bytes) { lists.append((page.pages, page.unreadable)) }
    if let page = try? OpenMarketJSON.decodeV1ListPage(bytes) { lists.append((page.items.map(\.productListItem), page.unreadable)) }
    for (items, unreadable) in lists {
        let seen = Date(timeIntervalSince1970: 1_700_000_000)
        let products = items.map { CatalogProduct($0, seenAt: seen) }
        for product in products {
            _ = CatalogCSV.row(product)
            for adjustment in adjustments {
                _ = adjustment.apply(price: product.price, discountedPrice: product.discountedPrice, currency: product.currency)
            }
        }
        let snapshot = CatalogSnapshot(products, unreadable: unreadable)
        // The list from the local copy, built as `listPage` builds it.
        let result = snapshot.page(query, ownVendorID: 7)
        var pageQuery = query
        pageQuery.page = result.pageNo
        var shown = result.products.map { app.controllers.productController.presenter.listRow($0.listItem, ownVendorID: 7, l) }
        CatalogController.markSelectable(&shown, CatalogController.selectableIDs(shown, ownVendorID: 7), nil, l)
        var list = app.controllers.catalogController.listView(pageQuery, products: shown, target: pageQuery.url(), l)
        list.totalText = CatalogController.totalText(count: result.totalCount, page: result.pageNo,
                                                     lastPage: result.lastPage, query: pageQuery, l)
        list.pagination = Pagination.view(current: result.pageNo, last: result.lastPage, hasPrev: true,
                                          hasNext: true, query: pageQuery)
        list.unreadable = UnreadableProducts.view(snapshot.unreadable, l)
        list.empty = shown.isEmpty && snapshot.unreadable.isEmpty ? CatalogController.emptyState(pageQuery, l) : nil
        list.chips = FilterChips.view(pageQuery, l)
        render(app, list, l)
        _ = snapshot.all(query, ownVendorID: 7)
        // The live list: each item presented as the API sent it.
        _ = items.map { app.controllers.productController.presenter.listRow($0, ownVendorID: 7, l) }
    }

    // Details: v2 and v1, on every page that shows one product.
    var details: [ProductDetail] = []
    if let detail = try? OpenMarketJSON.decodeDetail(bytes) { details.append(detail) }
    if let item = try? OpenMarketJSON.decodeV1Detail(bytes) { details.append(item.productDetail) }
    for product in details {
        _ = CatalogCSV.row(CatalogProduct(product, seenAt: Date(timeIntervalSince1970: 0)))
        for adjustment in adjustments {
            _ = adjustment.apply(price: product.price, discountedPrice: product.discountedPrice, currency: product.currency)
        }
        _ = WholeNumber.clamped(product.price)
        var detail = app.controllers.productController.presenter.detail(product, ownVendorID: 7, l)
        detail.canManage = true
        detail.csrfToken = "fuzz"
        render(app, detail, l)
        let values = ProductFormValues(product: product, thumbnailID: app.controllers.productController.presenter.thumbnailImageID(of: product))
        _ = values.parse()
        var edit = ProductFormState(values: values, product: product, loaded: values)
        edit.back = "/products"
        let name = DisplayBounds.name(product.name)
        render(app, ProductEditPageView(form: app.controllers.productFormController.formView(edit, editing: product.id, csrfToken: "fuzz", l),
                                        productID: product.id, heading: l("edit_heading", ["name": name])), l)
        var duplicate = ProductFormState(values: ProductFormValues(product: product, thumbnailID: nil))
        duplicate.values.name = String(l("duplicate_name", ["name": name]).prefix(ProductRules.nameLength.upperBound))
        render(app, ProductNewPageView(form: app.controllers.productFormController.formView(duplicate, editing: nil, csrfToken: "fuzz", l)), l)
        render(app, app.controllers.productDeleteController.deleteView(product, back: "/products", alert: nil, passwordError: nil, locked: nil,
                                                     csrfToken: "fuzz", l), l)
    }
    let elapsed = Date().timeIntervalSince(started)
    fuzzCheck(elapsed < 1, "one input took \(elapsed) s (the bound is 1 s)")
    return 0
}

private func render<View: PageView>(_ app: PanelApp, _ view: View, _ l: Localizer) {
    do {
        let context = PanelContext(signedIn: false, person: "local", role: .owner, sessionHash: nil, localizer: l,
                                   access: .viewer, browserFormKey: "fuzz", formTokens: app.stores.formTokens,
                                   languageSwitchTarget: "/products")
        _ = try app.pages.renderer.page(view, title: "fuzz", context: context, accessControl: false, section: .products)
    } catch {
        // A render past the template engine's output cap is a 500 the seller would see.
        fuzzCheck(false, "\(View.template) did not render: \(error)")
    }
}
