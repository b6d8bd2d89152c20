import OpenMarketCore
/// The JSON bodies of the API in one dialect: key order, key casing and date format exactly as
/// the real servers wrote them (see Tests/OpenMarketCoreTests/Fixtures and docs/api.md), compact.
struct ProductJSON: Sendable {
    var dialect: Dialect
    /// "http://host:port" that image URLs start with.
    var mediaBase: String

    /// v2a wrote "2022-01-04T00:00:00.00", v2b "2022-11-16T00:00:00".
    func date(_ day: Day) -> String {
        day.description + (dialect == .v2a ? "T00:00:00.00" : "T00:00:00")
    }

    func imageURL(_ fileName: String) -> String { mediaBase + "/media/" + fileName }
    func thumbnailURL(_ fileName: String) -> String { mediaBase + "/media/thumb/" + fileName }

    /// A list page (`pages` in the dialect's position: v2a puts it after `limit`, v2b last).
    func listPage(pageNo: Int, itemsPerPage: Int, totalCount: Int, products: [ProductRecord]) -> String {
        let lastPage = (totalCount + itemsPerPage - 1) / itemsPerPage
        var json = JSONText(capacity: 300 + products.count * (dialect == .v2a ? 420 : 700))
        json.beginObject()
        if dialect == .v2a {
            json.member("page_no", pageNo)
            json.member("items_per_page", itemsPerPage)
            json.member("total_count", totalCount)
            json.member("offset", (pageNo - 1) * itemsPerPage)
            json.member("limit", pageNo * itemsPerPage)
            writeItems(products, into: &json)
            json.member("last_page", lastPage)
            json.member("has_next", pageNo < lastPage)
            json.member("has_prev", pageNo > 1)
        } else {
            json.member("pageNo", pageNo)
            json.member("itemsPerPage", itemsPerPage)
            json.member("totalCount", totalCount)
            json.member("offset", (pageNo - 1) * itemsPerPage)
            json.member("limit", pageNo * itemsPerPage)
            json.member("lastPage", lastPage)
            json.member("hasNext", pageNo < lastPage)
            json.member("hasPrev", pageNo > 1)
            writeItems(products, into: &json)
        }
        json.endObject()
        return json.text
    }

    private func writeItems(_ products: [ProductRecord], into json: inout JSONText) {
        json.key("pages")
        json.beginArray()
        for product in products {
            json.beginObject()
            json.member("id", product.id)
            json.member("vendor_id", product.vendorID)
            if dialect == .v2b { json.member("vendorName", product.vendorName) }
            json.member("name", product.fields.name)
            if dialect == .v2b { json.member("description", product.fields.description) }
            json.member("thumbnail", thumbnailURL(product.thumbnailFile))
            json.member("currency", product.fields.currency)
            writePrices(product, descriptionAfterPrice: false, into: &json)
            json.member("stock", product.fields.stock)
            json.member("created_at", date(product.createdDay))
            json.member("issued_at", date(product.issuedDay))
            json.endObject()
        }
        json.endArray()
    }

    /// v2a's detail has `description` between `price` and `bargain_price`; its list items have none.
    private func writePrices(_ product: ProductRecord, descriptionAfterPrice: Bool, into json: inout JSONText) {
        json.member("price", money: product.fields.price)
        if descriptionAfterPrice { json.member("description", product.fields.description) }
        json.member("bargain_price", money: product.fields.price - product.fields.discountedPrice)
        json.member("discounted_price", money: product.fields.discountedPrice)
    }

    /// A product detail with `images` and `vendors`.
    func detail(_ product: ProductRecord) -> String {
        var json = JSONText(capacity: 900 + product.images.count * 250)
        json.beginObject()
        json.member("id", product.id)
        json.member("vendor_id", product.vendorID)
        json.member("name", product.fields.name)
        if dialect == .v2b { json.member("description", product.fields.description) }
        json.member("thumbnail", thumbnailURL(product.thumbnailFile))
        json.member("currency", product.fields.currency)
        writePrices(product, descriptionAfterPrice: dialect == .v2a, into: &json)
        json.member("stock", product.fields.stock)
        json.member("created_at", date(product.createdDay))
        json.member("issued_at", date(product.issuedDay))
        json.key("images")
        json.beginArray()
        for image in product.images {
            json.beginObject()
            json.member("id", image.id)
            json.member("url", imageURL(image.fileName))
            json.member("thumbnail_url", thumbnailURL(image.fileName))
            if dialect == .v2a { json.member("succeed", true) }
            json.member("issued_at", date(image.issuedDay))
            json.endObject()
        }
        json.endArray()
        json.key("vendors")
        json.beginObject()
        if dialect == .v2a {
            json.member("name", product.vendorName)
            json.member("id", product.vendorID)
            json.member("created_at", date(product.vendorCreatedDay))
            json.member("issued_at", date(product.vendorCreatedDay))
        } else {
            json.member("id", product.vendorID)
            json.member("name", product.vendorName)
        }
        json.endObject()
        json.endObject()
        return json.text
    }

    /// The error body of every error status: `{"code":N,"message":"..."}`.
    static func error(status: Int, message: String) -> String {
        var json = JSONText(capacity: 64 + message.utf8.count)
        json.beginObject()
        json.member("code", status)
        json.member("message", message)
        json.endObject()
        return json.text
    }
}
