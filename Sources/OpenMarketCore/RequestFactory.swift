import Foundation

/// Builds the exact HTTP requests of each API call for a configuration. Pure: no I/O, so every
/// request can be checked byte for byte in tests.
struct RequestFactory: Sendable {
    let configuration: ClientConfiguration

    private var identifierHeader: HeaderField { HeaderField(name: "identifier", value: configuration.identifier) }
    private static let acceptJSON = HeaderField(name: "Accept", value: "application/json")
    private static let acceptText = HeaderField(name: "Accept", value: "text/plain")
    private static let contentJSON = HeaderField(name: "Content-Type", value: "application/json")

    func healthCheck() -> TransportRequest {
        request("GET", url(path: "/healthChecker"), headers: [Self.acceptText])
    }

    func listProducts(page: Int, itemsPerPage: Int, search: String?) -> TransportRequest {
        var query = "page_no=\(page)&items_per_page=\(itemsPerPage)"
        if let search, !search.isEmpty {
            query += "&search_value=" + Self.percentEncode(search)
        }
        return request("GET", url(path: "/api/products", query: query), headers: [Self.acceptJSON])
    }

    func product(id: Int) -> TransportRequest {
        request("GET", url(path: "/api/products/\(id)"), headers: [Self.acceptJSON])
    }

    func create(_ draft: NewProduct, boundary: String) -> TransportRequest {
        let params = RequestJSON.object([
            "name": .string(draft.name),
            configuration.dialect.descriptionRequestKey: .string(draft.description),
            "price": .number(draft.price),
            "currency": .string(draft.currency.rawValue),
            "discounted_price": .number(draft.discountedPrice),
            "stock": .integer(draft.stock),
            "secret": .string(configuration.secret),
        ])
        let encoder = MultipartEncoder(boundary: boundary)
        return request("POST", url(path: "/api/products"),
                       headers: [identifierHeader, HeaderField(name: "Content-Type", value: encoder.contentType),
                                 Self.acceptJSON],
                       body: encoder.encode(params: params, images: draft.images))
    }

    func update(id: Int, changes: ProductChanges) -> TransportRequest {
        var fields: [String: RequestJSON] = ["secret": .string(configuration.secret)]
        if let name = changes.name { fields["name"] = .string(name) }
        if let text = changes.description { fields[configuration.dialect.descriptionRequestKey] = .string(text) }
        if let thumbnailID = changes.thumbnailID { fields["thumbnail_id"] = .integer(thumbnailID) }
        if let price = changes.price { fields["price"] = .number(price) }
        if let currency = changes.currency { fields["currency"] = .string(currency.rawValue) }
        if let discount = changes.discountedPrice { fields["discounted_price"] = .number(discount) }
        if let stock = changes.stock { fields["stock"] = .integer(stock) }
        return request("PATCH", url(path: "/api/products/\(id)"),
                       headers: [identifierHeader, Self.contentJSON, Self.acceptJSON],
                       body: RequestJSON.object(fields))
    }

    /// Step 1 of delete: v2a `…/secret` (answers the product secret), v2b `…/archived` (answers a path).
    func deleteStepOne(id: Int, password: String) -> TransportRequest {
        let step = configuration.dialect == .v2a ? "secret" : "archived"
        return request("POST", url(path: "/api/products/\(id)/\(step)"),
                       headers: [identifierHeader, Self.contentJSON, Self.acceptText],
                       body: RequestJSON.object(["secret": .string(password)]))
    }

    /// Step 2 of delete in v2a: `DELETE /api/products/{id}/{product secret}`.
    func deleteWithProductSecret(id: Int, productSecret: String) -> TransportRequest {
        deleteRequest(url(path: "/api/products/\(id)/" + Self.percentEncode(productSecret)))
    }

    func deleteRequest(_ url: URL) -> TransportRequest {
        request("DELETE", url, headers: [identifierHeader, Self.acceptJSON])
    }

    // MARK: URLs

    /// The base URL with `path` appended to its own path (so a prefix like `/market` is kept).
    /// `path` and `query` must already be percent-encoded.
    func url(path: String, query: String? = nil) -> URL {
        var components = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: false)
            ?? URLComponents()
        var prefix = components.percentEncodedPath
        while prefix.hasSuffix("/") { prefix.removeLast() }
        components.percentEncodedPath = prefix + path
        components.percentEncodedQuery = query
        components.fragment = nil
        return components.url ?? configuration.baseURL
    }

    /// The base URL's path prefix, without a trailing slash ("" for none).
    var pathPrefix: String {
        var prefix = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: false)?
            .percentEncodedPath ?? ""
        while prefix.hasSuffix("/") { prefix.removeLast() }
        return prefix
    }

    /// RFC 3986 percent-encoding of UTF-8 with only unreserved characters kept (space → %20,
    /// `+`, `&`, `=`, `%`, `/` and Korean all encoded).
    static func percentEncode(_ text: String) -> String {
        PercentEncoding.encode(text, keeping: PercentEncoding.isUnreserved)
    }

    private func request(_ method: String, _ url: URL, headers: [HeaderField], body: Data? = nil) -> TransportRequest {
        TransportRequest(method: method, url: url, headers: headers, body: body, timeout: configuration.timeout)
    }
}
