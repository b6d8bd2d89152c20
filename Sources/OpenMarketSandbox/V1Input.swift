import Foundation
import HTTPServer
import OpenMarketCore

/// Reads and checks the multipart forms of v1 writes (see "Input rules" in the API notes).
/// Every text field must be valid UTF-8 without control characters other than tab, CR and LF;
/// numbers are ASCII digits with an optional `-`; a known field sent twice is refused.
struct V1Input: Sendable {
    var strict: Bool

    static let textFields = ["title", "descriptions", "price", "currency", "stock", "discounted_price", "password"]
    static let imageFieldNames: Set<String> = ["images", "images[]"]
    static let passwordLength = 1...100

    /// The known text fields (each at most once) and the image parts in their order.
    struct Form: Sendable {
        var fields: [String: String]
        var images: [UploadedFile]
    }

    /// A part named `images`/`images[]` is an image when it has a filename or a Content-Type;
    /// one with neither is text (seed 001 sends `[53412 bytes]` there) and is ignored.
    static func form(_ multipart: MultipartForm) throws(V1Failure) -> Form {
        var fields: [String: String] = [:]
        for name in textFields {
            let values = multipart.fields.all(name)
            if values.count > 1 { throw .badRequest("\(name): sent more than once") }
            guard let value = values.first else { continue }
            if let problem = TextRules.controlCharacterProblem(value) { throw .badRequest("\(name): \(problem)") }
            fields[name] = value
        }
        let images = multipart.files.filter { imageFieldNames.contains($0.fieldName) }
        return Form(fields: fields, images: images)
    }

    /// The password of a write: present, 1–100 characters.
    static func password(in form: Form) throws(V1Failure) -> String {
        guard let password = form.fields["password"], !password.isEmpty else { throw .badRequest("password: is required") }
        guard passwordLength.contains(password.count) else {
            throw .badRequest("password: must be \(passwordLength.lowerBound)–\(passwordLength.upperBound) characters")
        }
        return password
    }

    // MARK: Fields

    /// The fields of a registration, or every broken rule ("field: reason; …").
    func registration(_ form: Form) throws(V1Failure) -> V1ItemFields {
        var issues = V1Issues()
        let title = issues.required(form, "title")
        let descriptions = issues.required(form, "descriptions")
        let price = issues.integer(form, "price", required: true)
        let currency = issues.required(form, "currency")
        let stock = issues.integer(form, "stock", required: true)
        let discount = issues.integer(form, "discounted_price", required: false)
        let fields = V1ItemFields(title: title ?? "", descriptions: descriptions ?? "", price: price ?? 1,
                                  currency: currency ?? "KRW", stock: stock ?? 0, discountedPrice: discount)
        check(fields, given: Set(form.fields.keys), into: &issues)
        try issues.throwIfAny()
        return fields
    }

    /// The item after applying a PATCH form's fields; rules judged on the result.
    func apply(_ form: Form, to current: V1ItemFields) throws(V1Failure) -> V1ItemFields {
        var issues = V1Issues()
        var fields = current
        if let title = form.fields["title"] { fields.title = title }
        if let descriptions = form.fields["descriptions"] { fields.descriptions = descriptions }
        if let currency = form.fields["currency"] { fields.currency = currency }
        if let price = issues.integer(form, "price", required: false) { fields.price = price }
        if let stock = issues.integer(form, "stock", required: false) { fields.stock = stock }
        if let discount = issues.integer(form, "discounted_price", required: false) { fields.discountedPrice = discount }
        check(fields, given: Set(form.fields.keys), into: &issues)
        try issues.throwIfAny()
        return fields
    }

    /// The single-field rules of the fields that were sent, and discount ≤ price on the result.
    private func check(_ fields: V1ItemFields, given: Set<String>, into issues: inout V1Issues) {
        if given.contains("title") {
            let length = fields.title.count
            if fields.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                issues.add("title", "must not be empty")
            } else if length > ProductRules.nameLength.upperBound {
                issues.add("title", "must be at most \(ProductRules.nameLength.upperBound) characters (got \(length))")
            } else if strict && length < ProductRules.nameLength.lowerBound {
                issues.add("title", "must be at least \(ProductRules.nameLength.lowerBound) characters (got \(length))")
            }
        }
        if given.contains("descriptions") {
            let length = fields.descriptions.count
            if length > ProductRules.descriptionLength.upperBound {
                issues.add("descriptions", "must be at most \(ProductRules.descriptionLength.upperBound) characters (got \(length))")
            } else if strict && length < ProductRules.descriptionLength.lowerBound {
                issues.add("descriptions", "must be at least \(ProductRules.descriptionLength.lowerBound) characters (got \(length))")
            }
        }
        if given.contains("currency"), Currency(rawValue: fields.currency) == nil {
            issues.add("currency", "must be KRW or USD")
        }
        if given.contains("price"), fields.price < 1, !issues.has("price") { issues.add("price", "must be 1 or more") }
        if given.contains("stock"), fields.stock < 0, !issues.has("stock") { issues.add("stock", "must be 0 or more") }
        if let discount = fields.discountedPrice, !issues.has("discounted_price"), !issues.has("price") {
            if discount < 0 {
                issues.add("discounted_price", "must be 0 or more")
            } else if discount > fields.price {
                issues.add(given.contains("discounted_price") ? "discounted_price" : "price",
                           "the discounted price (\(discount)) must not exceed the price (\(fields.price))")
            }
        }
    }

    // MARK: Images

    /// Six or more images: the live server's own reason, whatever else is wrong.
    static func checkImageCount(_ files: [UploadedFile]) throws(V1Failure) {
        if files.count > ProductRules.imageCount.upperBound { throw .tooManyImages }
    }

    /// Checks image parts: at most 5 (the live server's exact reason), `required` at least 1,
    /// each at most 307,200 bytes, JPEG/PNG/GIF/WebP by content, within the pixel limits.
    static func checkImages(_ files: [UploadedFile], required: Bool) throws -> [ProductInput.CheckedImage] {
        try checkImageCount(files)
        if required && files.isEmpty { throw V1Failure.badRequest("images: at least 1 image is required") }
        do {
            return files.isEmpty ? [] : try ProductInput.checkImages(files)
        } catch let failure as APIFailure {
            throw V1Failure.badRequest(failure.message)
        }
    }
}

/// Broken rules gathered while reading a v1 form.
private struct V1Issues {
    private var messages: [(field: String, reason: String)] = []

    mutating func add(_ field: String, _ reason: String) { messages.append((field, reason)) }
    func has(_ field: String) -> Bool { messages.contains { $0.field == field } }

    func throwIfAny() throws(V1Failure) {
        if !messages.isEmpty {
            throw .badRequest(messages.map { "\($0.field): \($0.reason)" }.joined(separator: "; "))
        }
    }

    mutating func required(_ form: V1Input.Form, _ name: String) -> String? {
        guard let value = form.fields[name] else { add(name, "is required"); return nil }
        return value
    }

    /// ASCII digits with an optional leading `-`, within signed 64 bits; nothing else.
    mutating func integer(_ form: V1Input.Form, _ name: String, required: Bool) -> Int? {
        guard let text = form.fields[name] else {
            if required { add(name, "is required") }
            return nil
        }
        guard let value = V1Integer.parse(text) else {
            add(name, "must be a whole number written with digits only")
            return nil
        }
        return value
    }
}

/// The v1 number form: `-?[0-9]+` within `Int` (64 bits). Swift's `Int("+5")` would accept a
/// sign and is not used for that reason.
enum V1Integer {
    static func parse(_ text: some StringProtocol) -> Int? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : text[...]
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(text)
    }
}
