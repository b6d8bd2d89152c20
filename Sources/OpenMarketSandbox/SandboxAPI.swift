import Foundation
import HTTPServer
import OpenMarketCore

/// The Open Market API on HTTPServer's router: every endpoint of the configured dialect.
struct SandboxAPI: Sendable {
    let store: ProductStore
    let dialect: Dialect
    let input: ProductInput
    /// "http://host:port" as configured; known only after the listener started.
    let baseURL: Locked<String>
    /// Where large multipart parts are spooled: the sandbox's folder under DATA/uploads.
    var spoolDirectory: URL?
    /// List pages and details until the next write (the panel reads the same page again and again).
    let cache = ResponseCache()

    var credentials: Credentials { Credentials(store: store) }

    /// A whole request body may be this large; more is a 413 in the API's JSON form, decided by
    /// the server from Content-Length before reading (or as soon as a chunked body passes it).
    static let maxBody = 8 * 1024 * 1024
    static let defaultItemsPerPage = 20
    static let maxItemsPerPage = 100

    func router() -> Router<BasicRequestContext> {
        var router = Router()
        // Each handler's refusals become the API's JSON error (the router would make them text).
        let json = ErrorResponses.catching
        let limit = Self.maxBody
        let media = MediaResponses(directory: store.media)
        // Every route also answers with one trailing slash, as the real (Spring MVC) server did:
        // a 2023 client lists through `/api/products/?page_no=…` and registers at `/api/products/`.
        for slash in ["", "/"] {
            router.get("/healthChecker" + slash) { _ in HTTPResponse.text("\"OK\"") }
            router.get("/api/products" + slash, json { request in try await cached(request) { try await list($0) } })
            router.get("/api/products/{id}" + slash, json { request in try await cached(request) { try await detail($0) } })
            router.post("/api/products" + slash, bodyLimit: limit, json { try await register($0) })
            router.patch("/api/products/{id}" + slash, bodyLimit: limit, json { try await edit($0) })
            switch dialect {
            case .v2a, .v1:
                router.post("/api/products/{id}/secret" + slash, bodyLimit: limit, json { try await issueProductSecret($0) })
                router.delete("/api/products/{id}/{secret}" + slash, bodyLimit: limit, json { try await deleteWithProductSecret($0) })
            case .v2b:
                router.post("/api/products/{id}/archived" + slash, bodyLimit: limit, json { try await archive($0) })
                router.delete("/api/products/{token}" + slash, bodyLimit: limit, json { try await deleteArchived($0) })
            }
            router.get("/media/thumb/{name}" + slash) { media.response(name: $0.pathParameters["name"] ?? "", request: $0) }
            router.get("/media/{name}" + slash) { media.response(name: $0.pathParameters["name"] ?? "", request: $0) }
        }
        router.payloadTooLargeHandler = { _, _ in
            ErrorResponses.json(.payloadTooLarge("the request body is too large: at most \(Self.maxBody) bytes (\(Self.maxBody >> 20) MiB) are accepted"))
        }
        router.notFoundHandler = { request, _ in
            // The path is not repeated: a misplaced secret may sit in it.
            ErrorResponses.json(APIFailure.notFound("no such endpoint for \(request.method)"))
        }
        router.use(ErrorResponses.middleware)
        return router
    }

    /// The JSON writer for this request: image URLs on the address the client used
    /// (its `Host` header) so they work from other machines too, else the configured address.
    func writer(for request: HTTPRequest) -> ProductJSON {
        if let host = request.headers["host"], Self.isPlausibleHost(host) {
            return ProductJSON(dialect: dialect, mediaBase: "http://" + host)
        }
        return ProductJSON(dialect: dialect, mediaBase: baseURL.value)
    }

    /// Letters, digits and `.-:[]` only: a Host header we may copy into a URL.
    static func isPlausibleHost(_ host: String) -> Bool {
        !host.isEmpty && host.utf8.count <= 255 && host.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || ".-:[]".unicodeScalars.contains(scalar))
        }
    }

    /// The whole body of a JSON request (the route's limit keeps it within `maxBody`).
    static func collectBody(_ request: HTTPRequest) async throws -> Data {
        try await request.body.collect()
    }

    static func jsonResponse(_ text: String) -> HTTPResponse {
        HTTPResponse.json(Data(text.utf8))
    }

    // MARK: Reading

    /// Answers from the cache when nothing was written since the same request was answered.
    /// The key holds the Host header because image URLs are built from it.
    func cached(_ request: HTTPRequest, _ answer: HTTPHandler) async throws -> HTTPResponse {
        let key = (request.headers["host"] ?? "") + " " + request.target
        let generation = store.generation
        if let hit = cache.response(for: key, generation: generation) { return hit }
        let response = try await answer(request)
        cache.store(response, for: key, generation: generation)
        return response
    }

    func list(_ request: HTTPRequest) async throws -> HTTPResponse {
        let pageNo = try Self.positiveInteger(request.query["page_no"], name: "page_no") ?? 1
        let itemsPerPage = min(try Self.positiveInteger(request.query["items_per_page"], name: "items_per_page")
                                   ?? Self.defaultItemsPerPage, Self.maxItemsPerPage)
        let search = request.query["search_value"].flatMap { $0.isEmpty ? nil : $0 }
        let (offset, overflow) = (pageNo - 1).multipliedReportingOverflow(by: itemsPerPage)
        guard !overflow else { return HTTPResponse(status: 204) }
        let (total, products) = try await store.page(search: search, offset: offset, limit: itemsPerPage)
        // Past the last page, and an empty result, answer 204 with an empty body.
        guard !products.isEmpty else { return HTTPResponse(status: 204) }
        return Self.jsonResponse(writer(for: request).listPage(pageNo: pageNo, itemsPerPage: itemsPerPage,
                                                             totalCount: total, products: products))
    }

    /// nil when absent; a whole number ≥ 1 when given; anything else is a 400.
    static func positiveInteger(_ text: String?, name: String) throws(APIFailure) -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), value >= 1 else { throw .badRequest("\(name): must be a whole number of 1 or more") }
        return value
    }

    func detail(_ request: HTTPRequest) async throws -> HTTPResponse {
        let id = try Self.productID(request, parameter: "id")
        guard let product = try await store.product(id: id) else { throw APIFailure.productNotFound(id) }
        return Self.jsonResponse(writer(for: request).detail(product))
    }

    /// The numeric id of a product path; anything else names no product (404).
    static func productID(_ request: HTTPRequest, parameter: String) throws(APIFailure) -> Int {
        let text = request.pathParameters[parameter] ?? ""
        // Not echoed when it is no number: it may be a misplaced secret or token.
        guard let id = Int(text), id >= 1 else { throw .notFound("no product has this id") }
        return id
    }
}
