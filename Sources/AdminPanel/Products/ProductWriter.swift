import Foundation
import HTTPServer
import OpenMarketCore

/// The one way the panel writes a product, in both dialects: the API call through the shared
/// client, the local catalog copy updated at once (which stages the live event), the activity row
/// that says who changed what (which sends it), and for a delete the trash keep first and the
/// media cache's copies of its images dropped afterwards. Callers say
/// who asks and what to write, and get the product back or a typed error, never an HTTP answer.
///
/// A run of many writes (bulk, sheet) passes no note: its rows are written afterwards with
/// `record`, in the order the seller chose, failures included.
struct ProductWriter: Sendable {
    /// Who asks for a write: the activity row's person and address, and the trash's "deleted by".
    struct Requester: Sendable, Equatable {
        var person: String
        var address: String

        init(person: String, address: String) {
            self.person = person
            self.address = address
        }

        /// Who asks in `context`, from the request's address.
        init(_ context: PanelContext, _ request: HTTPRequest) {
            self.init(person: context.person, address: request.remoteAddress)
        }
    }

    /// The activity row a write leaves: its action (`ActivityAction`), each field old → new,
    /// its sentence (`ActivityDetail.stored`, or plain text) and the run it belongs to.
    struct Note: Sendable, Equatable {
        var action: String
        var changes: [ActivityEntry.FieldChange] = []
        var detail: String?
        var runID: String?
    }

    /// Why a delete did not happen: the product could not be kept in the trash (nothing was
    /// sent), or the API refused or failed.
    enum DeleteFailure: Error {
        case notKept(KeepThenDelete.KeepFailure)
        case refused(OpenMarketError)
    }

    let client: OpenMarketClient
    let catalog: CatalogService
    let activity: ActivityLog
    let vendor: VendorIdentity
    /// Keeps a product and its images in the trash before its delete is sent.
    let keeper: KeepThenDelete
    /// Drops a deleted product's images from the media cache.
    let mediaEviction: MediaEviction
    /// How this API's dialect writes (its passwords, its vendor).
    let dialect: any PanelDialect

    /// Registers `draft` (v2).
    func create(_ draft: NewProduct, by requester: Requester,
                note: (@Sendable (ProductDetail) -> Note)?) async throws(OpenMarketError) -> ProductDetail {
        let product = try await client.create(draft)
        await wrote(product, by: requester, note: note)
        return product
    }

    /// Registers `item` (v1, with the product's own password).
    func create(_ item: V1NewItem, by requester: Requester,
                note: (@Sendable (ProductDetail) -> Note)?) async throws(OpenMarketError) -> ProductDetail {
        let product = try await client.v1Register(item).productDetail
        await wrote(product, by: requester, note: note)
        return product
    }

    /// Sends `changes` to product `id` (v2). A product found deleted leaves the copy at once.
    func update(_ id: Int, _ changes: ProductChanges, by requester: Requester,
                note: (@Sendable (ProductDetail) -> Note)?) async throws(OpenMarketError) -> ProductDetail {
        let product: ProductDetail
        do throws(OpenMarketError) {
            product = try await client.update(id: id, changes: changes)
        } catch {
            await noticeGone(id, error)
            throw error
        }
        await wrote(product, by: requester, note: note)
        return product
    }

    /// Sends `changes` to product `id` (v1, with the product's password).
    func update(_ id: Int, _ changes: V1ItemChanges, by requester: Requester,
                note: (@Sendable (ProductDetail) -> Note)?) async throws(OpenMarketError) -> ProductDetail {
        let product: ProductDetail
        do throws(OpenMarketError) {
            product = try await client.v1Edit(id: id, changes).productDetail
        } catch {
            await noticeGone(id, error)
            throw error
        }
        await wrote(product, by: requester, note: note)
        return product
    }

    /// Keeps product `id` in the trash, then deletes it with `password` (the vendor's, or in v1
    /// the product's). Answers the product as it was.
    func delete(_ id: Int, password: String, by requester: Requester,
                note: (@Sendable (ProductDetail) -> Note)?) async throws(DeleteFailure) -> ProductDetail {
        let client = client
        let removed: ProductDetail
        do {
            removed = try await keeper.run(id, person: requester.person) { () throws(OpenMarketError) in
                try await client.delete(id: id, password: password)
            }
        } catch let failure as KeepThenDelete.KeepFailure {
            throw .notKept(failure)
        } catch let error as OpenMarketError {
            await noticeGone(id, error)
            throw .refused(error)
        } catch {
            throw .refused(.unreachable(reason: String(describing: error)))
        }
        await catalog.deleted(id)
        await mediaEviction.forgetMedia(of: removed)
        if let note { await record(note(removed), productID: id, by: requester) }
        return removed
    }

    /// An activity row about product writes: a run's rows after its calls, or a refusal.
    func record(_ note: Note, productID: Int?, by requester: Requester) async {
        var entry = ActivityEntry(person: requester.person, address: requester.address, action: note.action,
                                  productID: productID, changes: note.changes, detail: note.detail)
        entry.runID = note.runID
        await activity.record(entry)
    }

    /// A written product: every view shows it at once, and its row names who and what.
    private func wrote(_ product: ProductDetail, by requester: Requester, note: (@Sendable (ProductDetail) -> Note)?) async {
        await vendor.learn(product.vendorID)
        await catalog.wrote(product)
        if let note { await record(note(product), productID: product.id, by: requester) }
    }

    /// A product the API says is gone (deleted by someone else): gone from every view, and announced.
    private func noticeGone(_ id: Int, _ error: OpenMarketError) async {
        guard case .notFound = error else { return }
        await catalog.gone(id)
    }
}

/// The scheduler's discount changes go through the writer too: the copy shows them at once. Their
/// activity rows are written by the sale store, in the same transaction as the sale's state.
extension ProductWriter: SaleProductAPI {
    func product(id: Int) async throws(OpenMarketError) -> ProductDetail {
        try await client.product(id: id)
    }

    func setDiscount(_ amount: Double, productID: Int) async throws(OpenMarketError) -> ProductDetail {
        let product = try await client.update(id: productID, changes: ProductChanges(discountedPrice: amount))
        await catalog.wrote(product)
        return product
    }
}
