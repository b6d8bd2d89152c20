import Foundation
import HTTPServer
import OpenMarketCore

extension CatalogController {
    /// `GET /products/refresh?back=LIST`: the `data-refresh` button. Syncs the copy now (joining
    /// a sync under way), then returns to the list. A GET because it changes nothing of the
    /// seller's: it only makes the copy current, like a reload.
    func refreshCatalog(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let back = BackLink.target(request.query["back"])
        await upstream.catalogService.touch()
        // On failure the list shows the copy's age and the warning; nothing else to say here.
        await upstream.catalogService.syncStartingNow()
        return .redirect(to: back, status: 303)
    }

    /// `GET /products/export.csv?<the list's query>`: every product of that view, streamed.
    func exportCatalog(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let query = CatalogQuery({ request.query[$0] })
        let (snapshot, order) = try await exportedProducts(query, retryURL: query.exportURL)
        var response = HTTPResponse(status: 200, body: .stream(CatalogCSV.stream(snapshot, order: order)))
        response.headers["Content-Type"] = "text/csv; charset=utf-8"
        response.headers["Content-Disposition"] = "attachment; filename=\"products.csv\""
        return response
    }

    /// `GET /products/export.xlsx?<the list's query>`: the same products as an Excel workbook.
    func exportWorkbook(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let query = CatalogQuery({ request.query[$0] })
        let (snapshot, order) = try await exportedProducts(query, retryURL: query.exportWorkbookURL)
        let bytes = try await workbook.make(snapshot, order: order)
        var response = HTTPResponse(status: 200, body: .data(bytes))
        response.headers["Content-Type"] = CatalogWorkbook.contentType
        response.headers["Content-Disposition"] = "attachment; filename=\"products.xlsx\""
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// Every product of the view, from a fresh copy (an error page when the API cannot give one).
    func exportedProducts(_ query: CatalogQuery, retryURL: String) async throws -> (CatalogSnapshot, [Int32]) {
        await upstream.catalogService.ensureFresh()
        let status = await upstream.catalogService.status
        guard status.syncedAt != nil else {
            if let error = status.error { throw PageFailure(error, retryURL: retryURL) }
            throw PageFailure(status: 502, heading: "catalog_unavailable_heading",
                              message: "catalog_unavailable_message", retryURL: retryURL)
        }
        let snapshot = upstream.catalogService.copy.snapshot()
        return (snapshot, snapshot.all(query, ownVendorID: await upstream.vendor.id))
    }

    /// `GET /products/newest.json`: `{"newest_id": N}`, the id of the newest product on the API,
    /// polled by the list page's script for the new-products notice. Every tab shares one
    /// upstream check at most every few seconds (`NewestProductCheck`).
    func newestProduct(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        await upstream.catalogService.touch()
        guard let newest = await newestCheck.newestID() else {
            var response = HTTPResponse.json(Data(#"{"newest_id":null}"#.utf8), status: 503)
            response.headers["Cache-Control"] = "no-store"
            return response
        }
        // The API has something the copy lacks: bring the copy up to date in the background.
        if newest > (upstream.catalogService.copy.snapshot().newestID ?? 0) {
            let sync = upstream.catalogService
            Task { await sync.sync() }
        }
        var response = HTTPResponse.json(Data(#"{"newest_id":\#(newest)}"#.utf8))
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}

/// The newest product id on the API, asked at most once per `maxAge` however many tabs poll
/// (one `items_per_page=1` list call), and by one request at a time.
actor NewestProductCheck {
    private let client: OpenMarketClient
    private let maxAge: TimeInterval
    private var cached: (id: Int, at: Date)?
    private var running: Task<Int?, Never>?

    init(client: OpenMarketClient, maxAge: TimeInterval) {
        self.client = client
        self.maxAge = maxAge
    }

    func newestID() async -> Int? {
        if let cached, Date().timeIntervalSince(cached.at) < maxAge { return cached.id }
        if let running { return await running.value }
        let task = Task { [client] () -> Int? in
            guard let page = try? await client.listProducts(page: 1, itemsPerPage: 1) else { return nil }
            return page.pages.first?.id ?? 0
        }
        running = task
        let id = await task.value
        running = nil
        if let id { cached = (id, Date()) }
        return id
    }
}
