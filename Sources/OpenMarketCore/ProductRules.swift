import Foundation

/// The camp's product rules (see the API notes), as numbers the panel can show in hints and HTML
/// constraints, and as checks that name the broken field with a message a seller understands.
/// Lengths count characters as a reader sees them (Swift `Character`s), so "커피" is 2.
public enum ProductRules {
    public static let nameLength = 3...100
    public static let descriptionLength = 10...1000
    public static let imageCount = 1...5
    /// 300 KB, read as 300 × 1024 bytes.
    public static let maxImageBytes = 307_200
    /// Pixel limits, read from the image's header (`ImageDimensions`): a small file can declare
    /// a picture too large to decode safely.
    public static let maxImageSide = 10_000
    public static let maxImagePixels = 40_000_000

    public static func nameIssues(_ name: String) -> [FieldIssue] {
        textIssues(name, field: "name", what: "name", allowed: nameLength)
    }

    public static func descriptionIssues(_ description: String) -> [FieldIssue] {
        textIssues(description, field: "description", what: "description", allowed: descriptionLength)
    }

    public static func priceIssues(_ price: Double) -> [FieldIssue] {
        guard price.isFinite else { return [FieldIssue(field: "price", message: "Enter the price as a number.", code: "price_not_number")] }
        guard price > 0 else { return [FieldIssue(field: "price", message: "The price must be more than 0.", code: "price_not_positive")] }
        return []
    }

    /// Checks a discount on its own; `discountedPrice ≤ price` is checked by `discountIssues(_:price:)`.
    public static func discountIssues(_ discountedPrice: Double) -> [FieldIssue] {
        guard discountedPrice.isFinite else {
            return [FieldIssue(field: "discounted_price", message: "Enter the discount as a number.", code: "discount_not_number")]
        }
        guard discountedPrice >= 0 else {
            return [FieldIssue(field: "discounted_price", message: "The discount cannot be negative.", code: "discount_negative")]
        }
        return []
    }

    /// The discount alone, then against a price (skipped when the price itself is broken).
    public static func discountIssues(_ discountedPrice: Double, price: Double) -> [FieldIssue] {
        let own = discountIssues(discountedPrice)
        guard own.isEmpty, priceIssues(price).isEmpty, discountedPrice > price else { return own }
        return [discountOverPrice(price)]
    }

    /// KRW amounts are whole won (Korean marketplaces have no smaller unit; a stored 12000.5 showed
    /// as ₩12,001 on one page and 12000.5 on another). Dollars may have cents, no finer.
    /// `field` is `price` or `discounted_price`; the code is `<price|discount>_whole_won` or
    /// `<price|discount>_cents`.
    public static func fractionIssues(_ amount: Double, field: String, currency: Currency) -> [FieldIssue] {
        guard amount.isFinite, AmountText.hasFractionBeyond(currency, amount) else { return [] }
        let what = field == "price" ? "price" : "discount"
        switch currency {
        case .KRW:
            return [FieldIssue(field: field, message: "Enter the \(what) in whole won, without a fraction (like 12,000).",
                               code: what + "_whole_won")]
        case .USD:
            return [FieldIssue(field: field, message: "Enter the \(what) in dollars and cents, at most two decimals.",
                               code: what + "_cents")]
        }
    }

    public static func stockIssues(_ stock: Int) -> [FieldIssue] {
        stock >= 0 ? [] : [FieldIssue(field: "stock", message: "The stock cannot be negative.", code: "stock_negative")]
    }

    /// For form input: the currency must be one the API knows.
    public static func currencyIssues(_ text: String) -> [FieldIssue] {
        Currency(rawValue: text) == nil
            ? [FieldIssue(field: "currency", message: "Choose a currency: KRW or USD.", code: "currency_unknown")] : []
    }

    /// The count first, then one issue per bad file (type decided by the first bytes only).
    public static func imageIssues(_ images: [ImageUpload]) -> [FieldIssue] {
        var issues: [FieldIssue] = []
        if images.count < imageCount.lowerBound {
            issues.append(FieldIssue(field: "images", message: "Add at least one image.", code: "images_none"))
        } else if images.count > imageCount.upperBound {
            issues.append(FieldIssue(field: "images",
                message: "Add at most \(imageCount.upperBound) images (\(images.count) were chosen).",
                code: "images_too_many", arguments: ["max": "\(imageCount.upperBound)", "count": "\(images.count)"]))
        }
        for image in images { issues += fileIssues(filename: image.filename, data: image.data) }
        return issues
    }

    /// One file's issues: its type (by the first bytes), its size, and the pixels its header
    /// declares. A header whose size cannot be read is not refused here: nothing can decode it
    /// into a large picture either, and the API judges the file itself.
    public static func fileIssues(filename: String, data: Data) -> [FieldIssue] {
        let file = displayName(filename)
        let name = "“\(file)”"
        guard ImageFormat.detect(data) != nil else {
            return [FieldIssue(field: "images", message: "\(name) is not a JPEG, PNG, GIF or WebP image.",
                               code: "image_type", arguments: ["file": file])]
        }
        var issues: [FieldIssue] = []
        if data.count > maxImageBytes {
            let kilobytes = (data.count + 1023) / 1024
            issues.append(FieldIssue(field: "images",
                message: "\(name) is \(kilobytes) KB; each image can be at most \(maxImageBytes / 1024) KB.",
                code: "image_too_big", arguments: ["file": file, "size": "\(kilobytes)", "max": "\(maxImageBytes / 1024)"]))
        }
        if let issue = pixelIssue(file: file, ImageDimensions.read(data)) { issues.append(issue) }
        return issues
    }

    /// Width or height above `maxImageSide`, more than `maxImagePixels`, or no pixels at all.
    public static func pixelIssue(file: String, _ dimensions: ImageDimensions?) -> FieldIssue? {
        let name = "“\(file)”"
        guard let dimensions else { return nil }
        let arguments = ["file": file, "width": "\(dimensions.width)", "height": "\(dimensions.height)",
                         "side": "\(maxImageSide)", "megapixels": "\(maxImagePixels / 1_000_000)"]
        if dimensions.width < 1 || dimensions.height < 1 {
            return FieldIssue(field: "images", message: "\(name) declares no pixels (\(dimensions)).",
                              code: "image_no_pixels", arguments: arguments)
        }
        if dimensions.width > maxImageSide || dimensions.height > maxImageSide || dimensions.pixelCount > maxImagePixels {
            return FieldIssue(field: "images",
                message: "\(name) is \(dimensions) pixels; an image can be at most \(maxImageSide) pixels a side and \(maxImagePixels / 1_000_000) megapixels.",
                code: "image_too_many_pixels", arguments: arguments)
        }
        return nil
    }

    // MARK: helpers

    private static func textIssues(_ text: String, field: String, what: String,
                                   allowed: ClosedRange<Int>) -> [FieldIssue] {
        let controls = TextRules.controlCharacterIssues(text, field: field)
        if !controls.isEmpty { return controls }
        if text.allSatisfy(\.isWhitespace) {
            return [FieldIssue(field: field, message: "Enter a \(what) (\(allowed.lowerBound)–\(allowed.upperBound) characters).",
                               code: field + "_empty", arguments: ["min": "\(allowed.lowerBound)", "max": "\(allowed.upperBound)"])]
        }
        let count = text.count
        if count < allowed.lowerBound {
            return [FieldIssue(field: field,
                message: "The \(what) must be at least \(allowed.lowerBound) characters (it has \(count)).",
                code: field + "_too_short", arguments: ["min": "\(allowed.lowerBound)", "count": "\(count)"])]
        }
        if count > allowed.upperBound {
            return [FieldIssue(field: field,
                message: "The \(what) can be at most \(allowed.upperBound) characters (it has \(count)).",
                code: field + "_too_long", arguments: ["max": "\(allowed.upperBound)", "count": "\(count)"])]
        }
        return []
    }

    /// A filename shortened for a message; the panel escapes it when it renders.
    private static func displayName(_ filename: String) -> String {
        let name = filename.isEmpty ? "unnamed file" : filename
        return name.count > 60 ? String(name.prefix(57)) + "…" : name
    }

    static func discountOverPrice(_ price: Double) -> FieldIssue {
        FieldIssue(field: "discounted_price", message: "The discount cannot be more than the price (\(formatNumber(price))).",
                   code: "discount_over_price", arguments: ["price": formatNumber(price)])
    }

    static func priceUnderDiscount(_ discount: Double) -> FieldIssue {
        FieldIssue(field: "price", message: "The price cannot be lower than the current discount (\(formatNumber(discount))).",
                   code: "price_under_discount", arguments: ["discount": formatNumber(discount)])
    }

    /// `5000` for whole amounts, `12.5` otherwise.
    static func formatNumber(_ value: Double) -> String {
        WholeNumber.plainDigits(value) ?? String(value)
    }
}
