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

/// A product's own fields: what a vendor sends to register it and may change by editing it.
struct ProductFields: Sendable, Equatable {
    var name: String
    var description: String
    var currency: String
    var price: Double
    var discountedPrice: Double
    var stock: Int
}

/// A product to insert; its images are already durable files in the media folder.
struct ProductDraft: Sendable, Equatable {
    var vendorID: Int
    var fields: ProductFields
    var imageFiles: [String]
}

/// A product as stored, with what the JSON needs from its vendor.
/// `images` is filled for detail reads only (list pages need just the thumbnail).
struct ProductRecord: Sendable, Equatable {
    var id: Int
    var vendorID: Int
    var vendorName: String
    var vendorCreatedDay: Day
    var fields: ProductFields
    var createdDay: Day
    var issuedDay: Day
    var thumbnailFile: String
    var thumbnailImageID: Int?
    var images: [ImageRecord] = []
}
