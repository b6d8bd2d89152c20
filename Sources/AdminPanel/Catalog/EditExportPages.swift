import Foundation
import HTTPServer
import OpenMarketCore

extension CatalogController {
    /// `GET /products/export-edit.csv?<the list's query>`: the view's products for editing and
    /// importing again (`CatalogEditExport`), headers in the page's language.
    func exportForEditing(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let query = CatalogQuery({ request.query[$0] })
        let l = context.localizer
        let rows = try await editableRows(query, retryURL: query.editExportURL, l)
        var response = HTTPResponse(status: 200, body: .data(CatalogEditExport.csv(rows, language: l.language)))
        response.headers["Content-Type"] = "text/csv; charset=utf-8"
        response.headers["Content-Disposition"] = "attachment; filename=\"products-for-editing.csv\""
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// `GET /products/export-edit.xlsx?<the list's query>`: the same as an Excel workbook.
    func exportWorkbookForEditing(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let query = CatalogQuery({ request.query[$0] })
        let l = context.localizer
        let rows = try await editableRows(query, retryURL: query.editExportWorkbookURL, l)
        let bytes = try await workbook.makeForEditing(rows, language: l.language)
        var response = HTTPResponse(status: 200, body: .data(bytes))
        response.headers["Content-Type"] = CatalogWorkbook.contentType
        response.headers["Content-Disposition"] = "attachment; filename=\"products-for-editing.xlsx\""
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// The view's products as the API has them now, descriptions included. The copy keeps no
    /// descriptions, so each product is read from the API, a few at a time as every batch of API
    /// calls is; a view is capped at what one import takes, which also caps those reads. A
    /// product deleted since the copy's sync is left out; any other failed read fails the export
    /// (a file with an empty description would read as if the product had none).
    private func editableRows(_ query: CatalogQuery, retryURL: String, _ l: Localizer) async throws -> [CatalogEditExport.Row] {
        let (snapshot, order) = try await exportedProducts(query, retryURL: retryURL)
        guard order.count <= ImportService.maxRows else {
            throw PageFailure(status: 422, heading: "edit_export_too_many_heading", message: "edit_export_too_many_message",
                              arguments: ["count": l.number(order.count), "max": l.number(ImportService.maxRows)])
        }
        let listed = order.map { snapshot.products[Int($0)] }
        let client = upstream.client
        let reads = await BoundedConcurrency.map(listed.map(\.id), limit: ImportService.concurrency) { id -> Result<ProductDetail, OpenMarketError> in
            do throws(OpenMarketError) {
                let detail = try await client.product(id: id)
                return .success(detail)
            } catch {
                return .failure(error)
            }
        }
        var rows: [CatalogEditExport.Row] = []
        rows.reserveCapacity(reads.count)
        let now = pages.configuration.now()
        for (copy, read) in zip(listed, reads) {
            switch read {
            case .success(let detail):
                var product = CatalogProduct(detail, seenAt: now)
                // A detail without the vendor's name (v2a) keeps the name the copy learnt.
                if product.vendorName == nil { product.vendorName = copy.vendorName }
                rows.append(CatalogEditExport.Row(product: product, description: detail.description))
            case .failure(.notFound):
                continue
            case .failure(let error):
                throw PageFailure(error, retryURL: retryURL)
            }
        }
        return rows
    }
}
