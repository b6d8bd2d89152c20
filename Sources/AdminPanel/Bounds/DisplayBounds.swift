import OpenMarketCore

/// How much of a product's text and images a page shows. The API holds whatever any client
/// wrote (a 6 MB description, a 200,000-character name, 500 images); the rules allow far less
/// (100 characters, 1,000, 5 images). Pages show at most these bounds, so every page renders in
/// bounded time and size — a name repeated in 500 image captions once passed the template's
/// 8 MiB cap and answered 500. The data itself is untouched: bulk changes and the local copy use
/// the values as the API sent them.
enum DisplayBounds {
    /// Several times the rules' maxima: a product written by the rules always shows whole.
    static let nameCharacters = 300
    static let descriptionCharacters = 10_000
    static let images = 30

    /// `text` cut to `limit` characters, with "…" when it was longer.
    static func text(_ text: String, _ limit: Int) -> String {
        // Most texts are short: counting bytes is O(1) for native strings and bounds the characters.
        guard text.utf8.count > limit else { return text }
        var end = text.startIndex
        var count = 0
        while end < text.endIndex, count < limit {
            end = text.index(after: end)
            count += 1
        }
        return end == text.endIndex ? text : String(text[..<end]) + "…"
    }

    static func name(_ name: String) -> String { text(name, nameCharacters) }

    static func description(_ description: String) -> String { text(description, descriptionCharacters) }

    /// The product as a page shows it: text cut and at most `images` images.
    static func product(_ product: ProductDetail) -> ProductDetail {
        var shown = product
        shown.name = name(product.name)
        shown.description = description(product.description)
        if product.images.count > images { shown.images = Array(product.images.prefix(images)) }
        return shown
    }
}
