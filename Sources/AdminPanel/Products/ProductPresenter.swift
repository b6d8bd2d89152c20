import Foundation
import HTMLTemplates
import OpenMarketCore

/// Turns API models into template values: formatted prices, "sold out", dates, image links
/// through `/media`. The templates stay logic-less; every decision is made here.
struct ProductPresenter: Sendable {
    let media: MediaLinks

    func imageSource(_ url: String) -> TemplateValue {
        guard let path = media.panelPath(for: url) else { return .null }
        return .string(path)
    }

    func vendorLabel(id: Int, name: String?, ownVendorID: Int?, _ l: Localizer) -> String {
        if let name, !name.isEmpty { return name }
        return id == ownVendorID ? l("vendor_yours") : l("vendor_number", ["id": String(id)])
    }

    func stockText(_ stock: Int, _ l: Localizer) -> String {
        l.plural("stock_in_stock", count: stock)
    }

    /// Price fields shared by list rows and the detail page.
    func priceFields(price: Double, bargainPrice: Double, discountedPrice: Double, currency: Currency,
                     into fields: inout [String: TemplateValue], _ l: Localizer) {
        let discounted = discountedPrice > 0
        let original = l.money(price, currency)
        fields["discounted"] = .bool(discounted)
        fields["original_price"] = .string(original)
        fields["price"] = .string(discounted ? l.money(bargainPrice, currency) : original)
        fields["discount"] = .string(discounted ? l.money(discountedPrice, currency) : l.money(0, currency))
    }

    func listRow(_ item: ProductListItem, ownVendorID: Int?, _ l: Localizer) -> ProductRowView {
        let discounted = item.discountedPrice > 0
        let original = l.money(item.price, item.currency)
        return ProductRowView(
            id: item.id, vendorID: item.vendorID,
            name: DisplayBounds.name(item.name),
            vendor: vendorLabel(id: item.vendorID, name: item.vendorName, ownVendorID: ownVendorID, l),
            thumbnail: media.panelPath(for: item.thumbnail).map(ImageSourceView.init),
            description: item.description.map { TextView(text: DisplayBounds.text($0, 1_000)) },
            price: ListPrice(discounted: discounted, original: original,
                             current: discounted ? l.money(item.bargainPrice, item.currency) : original),
            soldOut: item.stock <= 0,
            stockText: stockText(item.stock, l))
    }

    /// Which image is the thumbnail: the one whose thumbnail URL the product names, else the first.
    func thumbnailImageID(of product: ProductDetail) -> Int? {
        product.images.first { $0.thumbnailURL == product.thumbnail || $0.url == product.thumbnail }?.id
            ?? product.images.first?.id
    }

    func detail(_ product: ProductDetail, ownVendorID: Int?, _ l: Localizer) -> [String: TemplateValue] {
        let product = DisplayBounds.product(product)
        var fields: [String: TemplateValue] = Dictionary(minimumCapacity: 32)
        priceFields(price: product.price, bargainPrice: product.bargainPrice, discountedPrice: product.discountedPrice,
                    currency: product.currency, into: &fields, l)
        let thumbnailID = thumbnailImageID(of: product)
        let count = product.images.count
        let images: [TemplateValue] = product.images.enumerated().map { index, image in
            let full = imageSource(image.url)
            let position = ["number": String(index + 1), "count": String(count)]
            return .object([
                "index": .int(index),
                "number": .int(index + 1),
                "count": .int(count),
                "src": full,
                "full_src": full,
                "thumb_src": imageSource(image.thumbnailURL),
                "alt": .string(l("detail_image_alt", position.merging(["name": product.name]) { a, _ in a })),
                "caption": .string(l("detail_image_caption", position)),
                "thumb_alt": .string(l("form_image_number", ["number": String(index + 1)])),
                "lazy": .bool(index > 0),
                "is_thumbnail": .bool(image.id == thumbnailID),
            ])
        }
        fields["id"] = .int(product.id)
        fields["name"] = .string(product.name)
        fields["description"] = .string(product.description)
        let vendor = vendorLabel(id: product.vendorID, name: product.vendor?.name, ownVendorID: ownVendorID, l)
        fields["vendor"] = .string(vendor)
        fields["sold_by"] = .string(l("detail_sold_by", ["vendor": vendor]))
        fields["gallery_label"] = .string(l("detail_gallery_label", ["name": product.name]))
        fields["delete_heading"] = .string(l("delete_heading", ["name": product.name]))
        fields["stock_number"] = .string(l.number(product.stock))
        fields["currency"] = .string(product.currency.rawValue)
        fields["stock"] = .int(product.stock)
        fields["stock_text"] = .string(stockText(product.stock, l))
        fields["sold_out"] = .bool(product.stock <= 0)
        fields["images"] = .list(images)
        fields["has_many_images"] = .bool(count > 1)
        fields["created"] = .string(l.date(product.createdAt))
        fields["created_iso"] = .string(DisplayDate.iso(product.createdAt))
        fields["issued"] = .string(l.date(product.issuedAt))
        fields["issued_iso"] = .string(DisplayDate.iso(product.issuedAt))
        fields["thumbnail"] = product.images.isEmpty ? .null : .object(["src": imageSource(product.thumbnail)])
        return fields
    }
}
