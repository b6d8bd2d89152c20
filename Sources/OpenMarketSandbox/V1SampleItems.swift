import Foundation
import OpenMarketCore

/// `--seed N` in v1: the same varied samples as v2 (`SampleProducts`), shaped for v1: whole
/// prices, a discount only on some, registration dates one minute apart, all with one password
/// (printed by `--help`) so they can be edited and deleted.
enum V1SampleItems {
    static let password = "sample-password"

    static func seed(_ count: Int, store: V1Store) throws -> Int {
        guard count > 0, try store.isEmpty() else { return 0 }
        var items: [V1ItemRecord] = []
        var written: [String] = []
        let start = V1API.now() - Double(count) * 60
        do {
            // Oldest first: v1 pages are in ascending id order, so sample 1 is on page 1.
            for index in 0..<count {
                let (draft, imageCount) = SampleProducts.draft(index: index, vendorID: 0)
                var files: [String] = []
                for imageIndex in 0..<imageCount {
                    let name = try store.media.store(SampleProducts.image(index: index, imageIndex: imageIndex),
                                                     fileExtension: "png", durable: false)
                    written.append(name)
                    files.append(name)
                }
                let price = max(1, WholeNumber.clamped(draft.fields.price))
                items.append(V1ItemRecord(
                    id: 0, title: draft.fields.name, descriptions: draft.fields.description, price: price, currency: draft.fields.currency,
                    stock: draft.fields.stock, discountedPrice: draft.fields.discountedPrice > 0 ? min(price, WholeNumber.clamped(draft.fields.discountedPrice)) : nil,
                    password: password, registrationDate: start + Double(index) * 60 + 0.25, imageFiles: files))
            }
            try store.media.syncEverything()
            try store.insertAllNow(items)
        } catch {
            store.media.remove(written)
            throw error
        }
        return count
    }
}

/// What the panel's start-up may print about v1 samples (the password is a fixed, public one).
public enum V1SampleItemsInfo {
    public static var password: String { V1SampleItems.password }
}
