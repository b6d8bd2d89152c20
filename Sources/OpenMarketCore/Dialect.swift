/// The generations of the Open Market API (see the API notes): the two of 2022 differ in key
/// casing, date format, the request's text field and the delete flow; the 2021 one (`v1`) has other
/// routes and shapes altogether and per-product passwords instead of vendors.
public enum Dialect: String, Sendable, CaseIterable {
    /// Jan–Sep 2021: `/items/{page}`, `/item/{id}`, multipart writes with a product password.
    case v1
    /// Dec 2021 – Oct 2022: snake_case list keys, dates with `.00`, `descriptions`, delete via `…/secret`.
    case v2a
    /// Oct 2022 –: camelCase list keys, dates without fraction, `description`, delete via `…/archived`.
    case v2b

    /// The JSON key of the product text in register and edit requests.
    public var descriptionRequestKey: String {
        switch self {
        case .v1, .v2a: "descriptions"
        case .v2b: "description"
        }
    }

    /// True for the 2021 API, whose products have passwords of their own and no vendor.
    public var hasProductPasswords: Bool { self == .v1 }
}

/// The currencies the API accepts.
public enum Currency: String, Sendable, Codable, CaseIterable {
    case KRW, USD
}
