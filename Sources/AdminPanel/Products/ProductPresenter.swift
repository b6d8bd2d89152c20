import Foundation
import HTMLTemplates
import OpenMarketCore

/// Turns API models into the typed views' values: formatted prices, "sold out", dates, image links
/// through `/media`. The templates stay logic-less; every decision is made here.
struct ProductPresenter: Sendable {
    let media: MediaLinks

    /// The seller's own store is always "내 스토어" / "Your store", whatever name the API gives it.
    func vendorLabel(id: Int, name: String?, ownVendorID: Int?, _ l: Localizer) -> String {
        if id == ownVendorID { return l("vendor_yours") }
        if let name, !name.isEmpty { return name }
        return l("vendor_number", ["id": String(id)])
    }

    func stockText(_ stock: Int, _ l: Localizer) -> String {
        l.plural("stock_in_stock", count: stock)
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

    /// The product's part of the detail page; `detailPage` adds the controls, history and sales.
    func detail(_ product: ProductDetail, ownVendorID: Int?, _ l: Localizer) -> ProductDetailView {
        let product = DisplayBounds.product(product)
        let discounted = product.discountedPrice > 0
        let original = l.money(product.price, product.currency)
        let thumbnailID = thumbnailImageID(of: product)
        let count = product.images.count
        let images = product.images.enumerated().map { index, image in
            let position = ["number": String(index + 1), "count": String(count)]
            return ProductImageView(
                index: index,
                source: media.panelPath(for: image.url),
                thumbnailSource: media.panelPath(for: image.thumbnailURL),
                alt: l("detail_image_alt", position.merging(["name": product.name]) { a, _ in a }),
                caption: l("detail_image_caption", position),
                thumbnailAlt: l("form_image_number", ["number": String(index + 1)]),
                isThumbnail: image.id == thumbnailID)
        }
        let vendor = vendorLabel(id: product.vendorID, name: product.vendor?.name, ownVendorID: ownVendorID, l)
        return ProductDetailView(
            id: product.id,
            name: product.name,
            description: product.description,
            soldBy: l("detail_sold_by", ["vendor": vendor]),
            galleryLabel: l("detail_gallery_label", ["name": product.name]),
            deleteHeading: l("delete_heading", ["name": product.name]),
            currency: product.currency.rawValue,
            stockNumber: l.number(product.stock),
            stockText: stockText(product.stock, l),
            soldOut: product.stock <= 0,
            price: ListPrice(discounted: discounted, original: original,
                             current: discounted ? l.money(product.bargainPrice, product.currency) : original),
            discount: l.money(discounted ? product.discountedPrice : 0, product.currency),
            images: images,
            created: l.date(product.createdAt),
            createdISO: DisplayDate.iso(product.createdAt),
            issued: l.date(product.issuedAt),
            issuedISO: DisplayDate.iso(product.issuedAt))
    }
}
