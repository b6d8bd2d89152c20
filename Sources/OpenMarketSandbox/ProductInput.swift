import Foundation
import HTTPServer
import OpenMarketCore

/// Reads and checks the fields of register (`params`) and edit (PATCH body) requests.
///
/// Every broken rule is collected as "field: reason" so one refusal names all of them.
/// Upper bounds, ranges and types always apply; the lower bounds on name and description
/// (3 and 10 characters) only in strict mode, because the live server accepted shorter ones.
struct ProductInput {
    var dialect: Dialect
    var strict: Bool

    // The camp's numbers live in the core's `ProductRules` (the panel shows the same ones).
    static let maxNameLength = ProductRules.nameLength.upperBound
    static let minStrictNameLength = ProductRules.nameLength.lowerBound
    static let maxDescriptionLength = ProductRules.descriptionLength.upperBound
    static let minStrictDescriptionLength = ProductRules.descriptionLength.lowerBound
    static let imageCount = ProductRules.imageCount
    static let maxImageBytes = ProductRules.maxImageBytes
    /// Java's `int`, the real server's stock type.
    static let maxStock = Int(Int32.max)

    /// The request key for the text: v2a `descriptions`, v2b `description`; the other is tolerated.
    var descriptionKey: String { dialect == .v2a ? "descriptions" : "description" }
    private var otherDescriptionKey: String { dialect == .v2a ? "description" : "descriptions" }

    // MARK: Register

    /// The vendor secret of a request body, required on every write.
    func secret(in object: [String: JSONValue]) throws(APIFailure) -> String {
        switch object["secret"] {
        case .string(let secret) where !secret.isEmpty:
            if let problem = TextRules.controlCharacterProblem(secret) { throw .badRequest("secret: \(problem)") }
            return secret
        case nil, .null?, .string?: throw .badRequest("secret: is required")
        default: throw .badRequest("secret: must be a string")
        }
    }

    /// The product fields of a register request's `params`, or every broken rule.
    func registration(from object: [String: JSONValue]) throws(APIFailure) -> ProductFields {
        var issues = Issues()
        let name = issues.requiredString(object, "name")
        let description = issues.requiredString(object, descriptionKey, alternative: otherDescriptionKey)
        let price = issues.requiredNumber(object, "price")
        let currency = issues.requiredString(object, "currency")
        let discountedPrice = issues.optionalNumber(object, "discounted_price") ?? 0
        let stock = issues.optionalInteger(object, "stock") ?? 0

        if let name { checkName(name, into: &issues) }
        if let description { checkDescription(description, into: &issues) }
        if let price { checkPrice(price, into: &issues) }
        if let currency { checkCurrency(currency, into: &issues) }
        checkDiscount(discountedPrice, price: price, into: &issues)
        checkStock(stock, into: &issues)
        try issues.throwIfAny()
        return ProductFields(name: name ?? "", description: description ?? "", currency: currency ?? "",
                            price: price ?? 0, discountedPrice: discountedPrice, stock: stock)
    }

    // MARK: Edit

    /// What a PATCH body asks to change; nil members stay as they are.
    struct Changes: Sendable {
        var name: String?
        var description: String?
        var thumbnailID: Int?
        var price: Double?
        var currency: String?
        var discountedPrice: Double?
        var stock: Int?
    }

    /// Reads a PATCH body's changes, checking each given field's own type and rules.
    func changes(from object: [String: JSONValue]) throws(APIFailure) -> Changes {
        var issues = Issues()
        var changes = Changes()
        changes.name = issues.optionalString(object, "name")
        changes.description = issues.optionalString(object, descriptionKey, alternative: otherDescriptionKey)
        changes.thumbnailID = issues.optionalInteger(object, "thumbnail_id")
        changes.price = issues.optionalNumber(object, "price")
        changes.currency = issues.optionalString(object, "currency")
        changes.discountedPrice = issues.optionalNumber(object, "discounted_price")
        changes.stock = issues.optionalInteger(object, "stock")

        if let name = changes.name { checkName(name, into: &issues) }
        if let description = changes.description { checkDescription(description, into: &issues) }
        if let price = changes.price { checkPrice(price, into: &issues) }
        if let currency = changes.currency { checkCurrency(currency, into: &issues) }
        if let stock = changes.stock { checkStock(stock, into: &issues) }
        if let discount = changes.discountedPrice, discount < 0 || !discount.isFinite {
            issues.add("discounted_price", "must be 0 or more")
        }
        try issues.throwIfAny()
        return changes
    }

    /// Applies `changes` to `product`; the rules that join fields (discount ≤ price, a thumbnail
    /// among the product's images) are checked on the product as it would be after the change.
    func apply(_ changes: Changes, to product: ProductRecord) throws(APIFailure) -> ProductRecord {
        var edited = product
        var fields = product.fields
        if let name = changes.name { fields.name = name }
        if let description = changes.description { fields.description = description }
        if let price = changes.price { fields.price = price }
        if let currency = changes.currency { fields.currency = currency }
        if let discount = changes.discountedPrice { fields.discountedPrice = discount }
        if let stock = changes.stock { fields.stock = stock }
        var issues = Issues()
        if let thumbnailID = changes.thumbnailID {
            if product.images.contains(where: { $0.id == thumbnailID }) {
                edited.thumbnailImageID = thumbnailID
            } else {
                issues.add("thumbnail_id", "\(thumbnailID) is not an image of this product")
            }
        }
        if fields.discountedPrice > fields.price {
            issues.add(changes.discountedPrice != nil ? "discounted_price" : "price",
                       "the discounted price (\(JavaDouble.format(fields.discountedPrice))) must not exceed the price (\(JavaDouble.format(fields.price)))")
        }
        try issues.throwIfAny()
        edited.fields = fields
        return edited
    }

    // MARK: Single-field rules

    private func checkName(_ name: String, into issues: inout Issues) {
        let length = name.count
        if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            issues.add("name", "must not be empty")
        } else if length > Self.maxNameLength {
            issues.add("name", "must be at most \(Self.maxNameLength) characters (got \(length))")
        } else if strict && length < Self.minStrictNameLength {
            issues.add("name", "must be at least \(Self.minStrictNameLength) characters (got \(length))")
        }
    }

    private func checkDescription(_ description: String, into issues: inout Issues) {
        let length = description.count
        if length > Self.maxDescriptionLength {
            issues.add(descriptionKey, "must be at most \(Self.maxDescriptionLength) characters (got \(length))")
        } else if strict && length < Self.minStrictDescriptionLength {
            issues.add(descriptionKey, "must be at least \(Self.minStrictDescriptionLength) characters (got \(length))")
        }
    }

    private func checkPrice(_ price: Double, into issues: inout Issues) {
        if !(price > 0) || !price.isFinite { issues.add("price", "must be greater than 0") }
    }

    private func checkCurrency(_ currency: String, into issues: inout Issues) {
        if Currency(rawValue: currency) == nil { issues.add("currency", "must be KRW or USD") }
    }

    private func checkDiscount(_ discount: Double, price: Double?, into issues: inout Issues) {
        if discount < 0 || !discount.isFinite {
            issues.add("discounted_price", "must be 0 or more")
        } else if let price, price > 0, discount > price {
            issues.add("discounted_price", "must not exceed the price")
        }
    }

    private func checkStock(_ stock: Int, into issues: inout Issues) {
        if stock < 0 { issues.add("stock", "must be 0 or more") }
        if stock > Self.maxStock { issues.add("stock", "must be at most \(Self.maxStock)") }
    }

    // MARK: Images

    /// An accepted image: its bytes and the format its first bytes show.
    struct CheckedImage: Sendable {
        var bytes: [UInt8]
        var format: ImageFormat
    }

    /// Checks the uploaded image parts: 1–5, each at most 307,200 bytes, JPEG/PNG/GIF/WebP by content.
    /// A part over the size limit is refused by its size alone: its bytes (perhaps megabytes the
    /// server spooled to disk) are never read.
    static func checkImages(_ files: [UploadedFile]) throws -> [CheckedImage] {
        var issues = Issues()
        if files.count < imageCount.lowerBound {
            issues.add("images", "at least \(imageCount.lowerBound) image is required")
        } else if files.count > imageCount.upperBound {
            issues.add("images", "at most \(imageCount.upperBound) images are allowed (got \(files.count))")
        }
        var checked: [CheckedImage] = []
        for file in files {
            let label = file.filename.isEmpty ? "an image" : "\"\(file.filename)\""
            if file.size > maxImageBytes {
                issues.add("images", "\(label) is \(file.size) bytes; the limit is \(maxImageBytes) bytes")
                continue
            }
            let data = try file.data()
            if let format = ImageFormat.detect(data) {
                if let problem = pixelProblem(data) {
                    issues.add("images", "\(label) \(problem)")
                    continue
                }
                checked.append(CheckedImage(bytes: [UInt8](data), format: format))
            } else {
                issues.add("images", "\(label) is not a JPEG, PNG, GIF or WebP image")
            }
        }
        try issues.throwIfAny()
        return checked
    }
}

extension ProductInput {
    /// A pixel bomb is refused by its declared size (a small file can declare billions of
    /// pixels that any decoder downstream would allocate). A header the reader cannot size is
    /// let through: the format check above already passed and the sandbox never decodes pixels.
    static func pixelProblem(_ data: Data) -> String? {
        guard let size = ImageDimensions.read(data) else { return nil }
        if size.width > ProductRules.maxImageSide || size.height > ProductRules.maxImageSide {
            return "is \(size.width)×\(size.height) pixels; each side can be at most \(ProductRules.maxImageSide) pixels"
        }
        if size.pixelCount > ProductRules.maxImagePixels {
            return "is \(size.width)×\(size.height) pixels; an image can have at most \(ProductRules.maxImagePixels / 1_000_000) million pixels"
        }
        return nil
    }
}

/// Broken rules gathered while reading a request.
private struct Issues {
    private var messages: [String] = []

    mutating func add(_ field: String, _ reason: String) { messages.append("\(field): \(reason)") }

    func throwIfAny() throws(APIFailure) {
        if !messages.isEmpty { throw .badRequest(messages.joined(separator: "; ")) }
    }

    private func value(_ object: [String: JSONValue], _ key: String, _ alternative: String?) -> (JSONValue, String)? {
        if let value = object[key], !value.isNull { return (value, key) }
        if let alternative, let value = object[alternative], !value.isNull { return (value, key) }
        return nil
    }

    mutating func requiredString(_ object: [String: JSONValue], _ key: String, alternative: String? = nil) -> String? {
        guard value(object, key, alternative) != nil else { add(key, "is required"); return nil }
        return optionalString(object, key, alternative: alternative)
    }

    mutating func optionalString(_ object: [String: JSONValue], _ key: String, alternative: String? = nil) -> String? {
        guard let (found, name) = value(object, key, alternative) else { return nil }
        guard case .string(let text) = found else { add(name, "must be a string"); return nil }
        if let problem = TextRules.controlCharacterProblem(text) { add(name, problem); return nil }
        return text
    }

    mutating func requiredNumber(_ object: [String: JSONValue], _ key: String) -> Double? {
        guard value(object, key, nil) != nil else { add(key, "is required"); return nil }
        return optionalNumber(object, key)
    }

    mutating func optionalNumber(_ object: [String: JSONValue], _ key: String) -> Double? {
        guard let (found, name) = value(object, key, nil) else { return nil }
        guard case .number(let number, _) = found else { add(name, "must be a number"); return nil }
        return number
    }

    mutating func optionalInteger(_ object: [String: JSONValue], _ key: String) -> Int? {
        guard let (found, name) = value(object, key, nil) else { return nil }
        // A whole value written with a fraction or exponent (`3.0`, `1e2`) still counts.
        guard case .number(let number, let integer) = found, let whole = integer ?? Int(exactly: number) else {
            add(name, "must be a whole number")
            return nil
        }
        return whole
    }
}
