/// What the store keeps about a vendor. The secret never leaves the sandbox in a response or log.
struct VendorRecord: Sendable, Equatable {
    var id: Int
    var name: String
    var identifier: String
    var secret: String
    var createdDay: Day
}

/// One stored image: its file in the media folder and the day it was uploaded.
struct ImageRecord: Sendable, Equatable {
    var id: Int
    var fileName: String
    var issuedDay: Day
}

/// A product as stored, with what the JSON needs from its vendor.
/// `images` is filled for detail reads only (list pages need just the thumbnail).
struct ProductRecord: Sendable, Equatable {
    var id: Int
    var vendorID: Int
    var vendorName: String
    var vendorCreatedDay: Day
    var name: String
    var description: String
    var currency: String
    var price: Double
    var discountedPrice: Double
    var stock: Int
    var createdDay: Day
    var issuedDay: Day
    var thumbnailFile: String
    var thumbnailImageID: Int?
    var images: [ImageRecord] = []
}

/// The fields of a product to insert; the images are already durable files in the media folder.
struct ProductDraft: Sendable, Equatable {
    var vendorID: Int
    var name: String
    var description: String
    var currency: String
    var price: Double
    var discountedPrice: Double
    var stock: Int
    var imageFiles: [String]
}

/// A product's editable fields after a PATCH has been applied to them.
struct ProductFields: Sendable, Equatable {
    var name: String
    var description: String
    var currency: String
    var price: Double
    var discountedPrice: Double
    var stock: Int
    var thumbnailImageID: Int?
}

extension ProductRecord {
    var fields: ProductFields {
        ProductFields(name: name, description: description, currency: currency, price: price,
                      discountedPrice: discountedPrice, stock: stock, thumbnailImageID: thumbnailImageID)
    }
}
