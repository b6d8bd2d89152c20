import Foundation

/// `--seed N`: fills an empty store with N varied products of the demo vendor — Korean and English
/// names, some discounted, some out of stock, some in USD with cents — each with 1–3 small
/// generated PNG images. The variety is derived from the index, so every run looks the same.
enum SampleProducts {
    private static let koreanNames = ["무선 키보드", "텀블러", "전신 패딩", "아이폰 케이스", "우유병 텀블러",
                                      "노트북 거치대", "블루투스 스피커", "캠핑 의자", "머그컵 세트", "가죽 지갑"]
    private static let englishNames = ["Mechanical Keyboard", "Travel Mug", "Desk Lamp", "Running Shoes",
                                       "Canvas Backpack", "Wireless Mouse", "Coffee Grinder", "Yoga Mat",
                                       "Notebook Set", "Water Bottle"]
    private static let palette: [PNGEncoder.Color] = [
        .init(red: 231, green: 76, blue: 60), .init(red: 46, green: 204, blue: 113),
        .init(red: 52, green: 152, blue: 219), .init(red: 241, green: 196, blue: 15),
        .init(red: 155, green: 89, blue: 182), .init(red: 26, green: 188, blue: 156),
        .init(red: 230, green: 126, blue: 34), .init(red: 236, green: 240, blue: 241),
        .init(red: 52, green: 73, blue: 94), .init(red: 255, green: 105, blue: 180),
    ]

    /// The product fields of sample number `index` (0-based).
    static func draft(index: Int, vendorID: Int) -> (draft: ProductDraft, imageCount: Int) {
        let korean = index % 2 == 0
        let names = korean ? koreanNames : englishNames
        let base = names[(index / 2) % names.count]
        let name = "\(base) \(index + 1)"
        let description = korean
            ? "\(base) 판매합니다. 상태 좋고 직거래 가능합니다. 샘플 상품 \(index + 1)번."
            : "\(base) in good condition, ships in two days. Sample product number \(index + 1)."
        let usd = index % 4 == 3
        let price = usd ? Double(5 + (index * 37) % 500) + 0.99 : Double((1 + (index * 7919) % 300) * 1_000)
        let discounted = index % 3 == 1 ? (usd ? 1.5 : (price / 10).rounded()) : 0
        let stock = index % 5 == 4 ? 0 : 1 + (index * 13) % 40
        let fields = ProductFields(name: name, description: description, currency: usd ? "USD" : "KRW",
                                   price: price, discountedPrice: discounted, stock: stock)
        let draft = ProductDraft(vendorID: vendorID, fields: fields, imageFiles: [])
        return (draft, 1 + index % 3)
    }

    /// The PNG of image `imageIndex` of sample `index`.
    static func image(index: Int, imageIndex: Int) -> [UInt8] {
        let from = palette[(index + imageIndex) % palette.count]
        let to = palette[(index * 3 + imageIndex + 5) % palette.count]
        return PNGEncoder.gradient(width: 48, height: 48, from: from, to: to)
    }

    /// Adds `count` samples when the store has no product yet; returns how many were added.
    /// All files are written, then synced once, then all rows commit in one transaction.
    static func seed(_ count: Int, store: ProductStore, vendorID: Int) throws -> Int {
        guard count > 0, try store.isEmpty() else { return 0 }
        var drafts: [ProductDraft] = []
        var written: [String] = []
        do {
            // Oldest first, so that the list (newest first) starts with sample 1.
            for index in (0..<count).reversed() {
                var (draft, imageCount) = draft(index: index, vendorID: vendorID)
                for imageIndex in 0..<imageCount {
                    let name = try store.media.store(image(index: index, imageIndex: imageIndex),
                                                     fileExtension: "png", durable: false)
                    written.append(name)
                    draft.imageFiles.append(name)
                }
                drafts.append(draft)
            }
            try store.media.syncEverything()
            try store.insertAllNow(drafts)
        } catch {
            store.media.remove(written)
            throw error
        }
        return count
    }
}
