import Foundation
import OpenMarketCore

/// A controller that reads products keeps the local catalog copy current with what it finds: a
/// product re-read shows in every view as the API has it, one found deleted is gone from them
/// (its own writes go through `ProductWriter`). The controller stores the `Upstream` these
/// methods use.
protocol CatalogWriting {
    var upstream: Upstream { get }
}

extension CatalogWriting {
    /// A product a page just read from the API: stored, and announced if another client changed it.
    func catalogSeen(_ product: ProductDetail) async { await upstream.catalogService.seen(product) }

    /// A product a page found deleted by someone else: gone from every view, and announced.
    func catalogGone(_ id: Int) async { await upstream.catalogService.gone(id) }

    /// The product a page shows, read from the API; a failure becomes its error page with a retry link.
    func loadProduct(_ id: Int, retry: String) async throws -> ProductDetail {
        do {
            return try await upstream.client.product(id: id)
        } catch {
            throw PageFailure(error, retryURL: retry)
        }
    }
}
