import Foundation

/// v1 items seen through the v2 models, so code written for one shape (the panel's pages)
/// shows v1 products too. v1 has no vendor (vendor id 0), no image ids (numbered 1… in
/// order) and one date (both `createdAt` and `issuedAt`).
extension V1ListItem {
    public var productListItem: ProductListItem {
        let discount = Double(discountedPrice ?? 0)
        return ProductListItem(id: id, vendorID: 0, name: title, thumbnail: thumbnails.first ?? "",
                               currency: currency, price: Double(price), bargainPrice: Double(price) - discount,
                               discountedPrice: discount, stock: stock, createdAt: registrationDate,
                               issuedAt: registrationDate)
    }
}

extension V1ItemDetail {
    public var productDetail: ProductDetail {
        let discount = Double(discountedPrice ?? 0)
        let productImages = images.enumerated().map { index, url in
            ProductImage(id: index + 1, url: url, thumbnailURL: index < thumbnails.count ? thumbnails[index] : url)
        }
        return ProductDetail(id: id, vendorID: 0, name: title, description: descriptions,
                             thumbnail: thumbnails.first ?? images.first ?? "", currency: currency,
                             price: Double(price), bargainPrice: Double(price) - discount, discountedPrice: discount,
                             stock: stock, createdAt: registrationDate, issuedAt: registrationDate,
                             images: productImages, vendor: nil)
    }
}
