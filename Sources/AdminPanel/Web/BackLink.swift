import Foundation

/// `back=`: the list a seller came from, carried on links to detail, edit and delete so that
/// "← All products", cancel and the redirects after a save or a delete return to the same place.
///
/// Only a local list URL is accepted (`/products` or `/products?…`): never another site
/// (`//evil.example`, `https:`), a backslash, a control character or an absurd length — so the
/// parameter cannot turn the panel into an open redirect or inject into a header.
enum BackLink {
    static let maxLength = 1024

    /// The validated list URL, or nil (then the plain `/products` applies).
    static func validated(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= maxLength else { return nil }
        guard value == "/products" || value.hasPrefix("/products?") else { return nil }
        // Visible ASCII only: a percent-encoded URL never needs more, and CR/LF, spaces,
        // backslashes or raw non-ASCII could confuse a browser or a header.
        guard value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) else { return nil }
        return value
    }

    /// The place to return to: the given list, else the plain list.
    static func target(_ value: String?) -> String {
        validated(value) ?? "/products"
    }

    /// `path` with `back=` added when there is a place to return to.
    static func link(_ path: String, back: String?) -> String {
        guard let parameter = parameter(back) else { return path }
        return path + (path.contains("?") ? "&" : "?") + parameter
    }

    /// `back=…` for links to `back`, nil when there is no place to return to. A page with many
    /// links to the same place (a row per product) encodes it once.
    static func parameter(_ back: String?) -> String? {
        validated(back).map { "back=" + CatalogQuery.encode($0) }
    }
}
