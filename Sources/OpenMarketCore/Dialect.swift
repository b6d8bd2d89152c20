/// The two generations of the 2022 Open Market API (see the API notes: key casing, date format,
/// the request's text field and the delete flow differ).
public enum Dialect: String, Sendable, CaseIterable {
    /// Dec 2021 – Oct 2022: snake_case list keys, dates with `.00`, `descriptions`, delete via `…/secret`.
    case v2a
    /// Oct 2022 –: camelCase list keys, dates without fraction, `description`, delete via `…/archived`.
    case v2b

    /// The JSON key of the product text in register and edit requests.
    public var descriptionRequestKey: String {
        switch self {
        case .v2a: "descriptions"
        case .v2b: "description"
        }
    }
}

/// The currencies the API accepts.
public enum Currency: String, Sendable, Codable, CaseIterable {
    case KRW, USD
}
