import Foundation
import Testing
@testable import OpenMarketSandbox

@Suite struct ProductStoreTests {
    private func draft(_ store: ProductStore, vendorID: Int, name: String, price: Double = 1_000) async throws -> ProductDraft {
        let files = try await store.media.storeAll([(bytes: SampleProducts.image(index: 1, imageIndex: 0), fileExtension: "png"),
                                                   (bytes: SampleProducts.image(index: 2, imageIndex: 0), fileExtension: "png")])
        let fields = ProductFields(name: name, description: "a description", currency: "KRW",
                                   price: price, discountedPrice: 0, stock: 3)
        return ProductDraft(vendorID: vendorID, fields: fields, imageFiles: files)
    }

    @Test func insertReadsBackWithImagesAndThumbnail() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try ProductStore(directory: folder.url)
        let vendor = try store.upsertVendor(name: "Kim", identifier: "id-1", secret: "pw")
        let stored = try await store.insert(try await draft(store, vendorID: vendor.id, name: "Mug"))
        let read = try #require(try await store.product(id: stored.id))
        #expect(read == stored)
        #expect(read.images.count == 2 && read.thumbnailFile == read.images[0].fileName)
        #expect(read.vendorName == "Kim" && read.createdDay == Day.today())
        let bytes = try Data(contentsOf: folder.url.appendingPathComponent("media/" + read.images[1].fileName))
        #expect([UInt8](bytes) == SampleProducts.image(index: 2, imageIndex: 0))
    }

    @Test func pagesAreNewestFirstAndSearchIsLiteralAndCaseInsensitive() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try ProductStore(directory: folder.url)
        let kim = try store.upsertVendor(name: "Kim", identifier: "id-1", secret: "pw")
        let lee = try store.upsertVendor(name: "Lee_Shop", identifier: "id-2", secret: "pw")
        for name in ["Blue MUG", "100% cotton", "패딩 판매", "plain"] {
            _ = try await store.insert(try await draft(store, vendorID: kim.id, name: name))
        }
        _ = try await store.insert(try await draft(store, vendorID: lee.id, name: "Lamp"))

        let all = try await store.page(search: nil, offset: 0, limit: 20)
        #expect(all.total == 5 && all.products.map(\.fields.name) == ["Lamp", "plain", "패딩 판매", "100% cotton", "Blue MUG"])
        let second = try await store.page(search: nil, offset: 2, limit: 2)
        #expect(second.products.map(\.fields.name) == ["패딩 판매", "100% cotton"])
        #expect(try await store.page(search: "mug", offset: 0, limit: 20).products.map(\.fields.name) == ["Blue MUG"])
        #expect(try await store.page(search: "%", offset: 0, limit: 20).products.map(\.fields.name) == ["100% cotton"])
        #expect(try await store.page(search: "_", offset: 0, limit: 20).products.map(\.fields.name) == ["Lamp"])  // vendor Lee_Shop
        #expect(try await store.page(search: "패딩", offset: 0, limit: 20).total == 1)
        #expect(try await store.page(search: "KIM", offset: 0, limit: 20).total == 4)
        #expect(try await store.page(search: "nothing", offset: 0, limit: 20).total == 0)
    }

    @Test func updateChecksOwnerAndKeepsThumbnailChoice() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try ProductStore(directory: folder.url)
        let kim = try store.upsertVendor(name: "Kim", identifier: "id-1", secret: "pw")
        let stored = try await store.insert(try await draft(store, vendorID: kim.id, name: "Mug"))
        let second = stored.images[1]
        await #expect(throws: APIFailure.notYourProduct) {
            _ = try await store.update(id: stored.id, vendorID: kim.id + 1) { $0 }
        }
        await #expect(throws: APIFailure.productNotFound(999)) {
            _ = try await store.update(id: 999, vendorID: kim.id) { $0 }
        }
        let updated = try await store.update(id: stored.id, vendorID: kim.id) { current in
            var edited = current
            edited.fields.price = 2_500
            edited.thumbnailImageID = second.id
            return edited
        }
        #expect(updated.fields.price == 2_500 && updated.thumbnailFile == second.fileName && updated.thumbnailImageID == second.id)
    }

    @Test func tokensAreSingleUseAndDeletionRemovesRowsAndFiles() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try ProductStore(directory: folder.url)
        let kim = try store.upsertVendor(name: "Kim", identifier: "id-1", secret: "pw")
        let first = try await store.insert(try await draft(store, vendorID: kim.id, name: "One"))
        let second = try await store.insert(try await draft(store, vendorID: kim.id, name: "Two"))
        let wrong = APIFailure.badRequest("wrong")

        let token = try await store.issueToken(.productSecret, productID: first.id, vendorID: kim.id)
        await #expect(throws: wrong) {   // a token only opens its own product
            _ = try await store.delete(id: second.id, vendorID: kim.id, token: token, kind: .productSecret, wrongToken: wrong)
        }
        await #expect(throws: wrong) {   // and only for its kind
            _ = try await store.delete(id: first.id, vendorID: kim.id, token: token, kind: .archive, wrongToken: wrong)
        }
        let deleted = try await store.delete(id: first.id, vendorID: kim.id, token: token, kind: .productSecret, wrongToken: wrong)
        #expect(deleted.id == first.id)
        #expect(try await store.product(id: first.id) == nil)
        #expect(try await store.page(search: nil, offset: 0, limit: 20).products.map(\.id) == [second.id])
        for image in deleted.images {
            #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("media/" + image.fileName).path))
        }
        await #expect(throws: APIFailure.productNotFound(first.id)) {
            _ = try await store.delete(id: first.id, vendorID: kim.id, token: token, kind: .productSecret, wrongToken: wrong)
        }
    }

    @Test func idsAreNeverReusedEvenAcrossRestarts() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var lastID = 0
        var lastImageID = 0
        do {
            let store = try ProductStore(directory: folder.url)
            let kim = try store.upsertVendor(name: "Kim", identifier: "id-1", secret: "pw")
            let product = try await store.insert(try await draft(store, vendorID: kim.id, name: "One"))
            lastID = product.id
            lastImageID = product.images.last!.id
            let token = try await store.issueToken(.archive, productID: product.id, vendorID: kim.id)
            #expect(try await store.productID(forArchiveToken: token) == product.id)
            _ = try await store.delete(id: product.id, vendorID: kim.id, token: token, kind: .archive, wrongToken: .badRequest(""))
        }
        let reopened = try ProductStore(directory: folder.url)
        let kim = try #require(try await reopened.vendor(identifier: "id-1"))
        let next = try await reopened.insert(try await draft(reopened, vendorID: kim.id, name: "Two"))
        #expect(next.id > lastID && next.images[0].id > lastImageID)
        #expect(try reopened.integrityCheck() == "ok")
    }

    @Test func startRemovesOrphanAndTemporaryFilesButKeepsStoredImages() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let media = folder.url.appendingPathComponent("media")
        var kept: [String] = []
        do {
            let store = try ProductStore(directory: folder.url)
            let kim = try store.upsertVendor(name: "Kim", identifier: "id-1", secret: "pw")
            kept = try await store.insert(try await draft(store, vendorID: kim.id, name: "One")).images.map(\.fileName)
            _ = try store.media.store([1, 2, 3], fileExtension: "png")   // a file whose row never committed
        }
        try Data([1]).write(to: media.appendingPathComponent(".tmp-0123456789abcdef0123456789abcdef.png"))
        try Data([1]).write(to: media.appendingPathComponent("notes.txt"))   // not ours: left alone
        _ = try ProductStore(directory: folder.url)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: media.path))
        #expect(names == Set(kept + ["notes.txt"]))
    }

    @Test func mediaPathsAcceptOnlyGeneratedNames() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let media = try MediaDirectory(root: folder.url)
        #expect(media.path(of: "0123456789abcdef0123456789abcdef.png") != nil)
        #expect(media.path(of: "../openmarket.sqlite") == nil)
        #expect(media.path(of: "0123456789abcdef0123456789abcdef.svg") == nil)
        #expect(media.path(of: "0123456789ABCDEF0123456789abcdef.png") == nil)
    }
}
