import Foundation

/// An async client for the Open Market API in either dialect. Every answer becomes a result or a
/// typed `OpenMarketError`; the vendor identifier and secret never appear in an error.
public struct OpenMarketClient: Sendable {
    public let configuration: ClientConfiguration
    private let transport: any HTTPTransport
    let requests: RequestFactory
    /// Makes the multipart boundary of `create`; tests fix it to compare bodies byte for byte.
    let makeBoundary: @Sendable () -> String

    public init(configuration: ClientConfiguration, transport: any HTTPTransport = URLSessionTransport()) {
        self.init(configuration: configuration, transport: transport, boundary: MultipartEncoder.randomBoundary)
    }

    init(configuration: ClientConfiguration, transport: any HTTPTransport,
         boundary: @escaping @Sendable () -> String) {
        self.configuration = configuration
        self.transport = transport
        self.requests = RequestFactory(configuration: configuration)
        self.makeBoundary = boundary
    }

    /// `GET /healthChecker`: true when the API answers 200 with `"OK"` (quotes optional); false
    /// for any other answer. Throws only when the API cannot be reached.
    public func healthCheck() async throws(OpenMarketError) -> Bool {
        if configuration.dialect == .v1 { return try await v1HealthCheck() }
        let response = try await send(requests.healthCheck(), credentials: [])
        return response.status == 200 && Self.plainText(response.body) == "OK"
    }

    /// One page of products, newest first. A 204 answer (past the end, or nothing found) is an
    /// empty page.
    public func listProducts(page: Int, itemsPerPage: Int, search: String? = nil) async throws(OpenMarketError) -> ProductListPage {
        if configuration.dialect == .v1 {
            return try await v1ProductListPage(page: page, itemsPerPage: itemsPerPage, search: search)
        }
        let response = try await exchange(requests.listProducts(page: page, itemsPerPage: itemsPerPage, search: search),
                                          credentials: [])
        if response.status == 204 || Self.isBlank(response.body) {
            return .empty(pageNo: page, itemsPerPage: itemsPerPage)
        }
        return try OpenMarketJSON.decodeListPage(response.body)
    }

    public func product(id: Int) async throws(OpenMarketError) -> ProductDetail {
        if configuration.dialect == .v1 { return try await v1Item(id: id).productDetail }
        return try await detail(from: requests.product(id: id), credentials: [])
    }

    /// Registers a product. The draft is validated first; nothing is sent when a rule is broken.
    public func create(_ draft: NewProduct) async throws(OpenMarketError) -> ProductDetail {
        if configuration.dialect == .v1 { throw .validation([V1NewItem.passwordMissing]) }
        let issues = draft.validate() + credentialIssues(needsSecret: true)
        guard issues.isEmpty else { throw .validation(issues) }
        return try await detail(from: requests.create(draft, boundary: makeBoundary()), credentials: vendorCredentials)
    }

    /// Edits a product (PATCH with the vendor secret and only the changed fields). The changes are
    /// validated on their own first; pass the current product to `ProductChanges.validate(current:)`
    /// beforehand to check them against it.
    public func update(id: Int, changes: ProductChanges) async throws(OpenMarketError) -> ProductDetail {
        if configuration.dialect == .v1 { throw .validation([V1NewItem.passwordMissing]) }
        let issues = changes.validate(current: nil) + credentialIssues(needsSecret: true)
        guard issues.isEmpty else { throw .validation(issues) }
        return try await detail(from: requests.update(id: id, changes: changes), credentials: vendorCredentials)
    }

    /// Deletes a product with the dialect's two steps. `password` is the vendor secret the seller
    /// typed; a wrong one is `.unauthorized`. Answers the deleted product's detail.
    /// In v1 `password` is the product's own password and the delete is one request.
    public func delete(id: Int, password: String) async throws(OpenMarketError) -> ProductDetail {
        if configuration.dialect == .v1 { return try await v1Delete(id: id, password: password).productDetail }
        var issues = credentialIssues(needsSecret: false)
        if password.isEmpty {
            issues.append(FieldIssue(field: "password", message: "Enter your vendor password to delete.", code: "password_empty"))
        }
        guard issues.isEmpty else { throw .validation(issues) }
        let credentials = vendorCredentials + [password]
        let first = try await exchange(requests.deleteStepOne(id: id, password: password), credentials: credentials)
        let answer = Self.plainText(first.body)
        guard !answer.isEmpty else {
            throw .undecodable(path: "", reason: "the API's answer to the first delete step was empty")
        }
        switch configuration.dialect {
        case .v2a, .v1:
            return try await detail(from: requests.deleteWithProductSecret(id: id, productSecret: answer),
                                    credentials: credentials + [answer])
        case .v2b:
            let url = try archivedURL(answer)
            return try await detail(from: requests.deleteRequest(url), credentials: credentials + [answer])
        }
    }

    // MARK: exchange

    private var vendorCredentials: [String] { [configuration.identifier, configuration.secret] }

    /// The configured credentials can be sent: present, and the identifier (a header value) made
    /// of visible ASCII only, so no CR/LF can ever reach a request head.
    private func credentialIssues(needsSecret: Bool) -> [FieldIssue] {
        var issues: [FieldIssue] = []
        let identifier = configuration.identifier
        if identifier.isEmpty {
            issues.append(FieldIssue(field: "", message: "No vendor identifier is configured.", code: "identifier_missing"))
        } else if !identifier.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
            issues.append(FieldIssue(field: "", message: "The configured vendor identifier contains characters that cannot be sent.", code: "identifier_unsendable"))
        }
        if needsSecret && configuration.secret.isEmpty {
            issues.append(FieldIssue(field: "secret", message: "No vendor secret is configured.", code: "secret_missing"))
        }
        return issues
    }

    func detail(from request: TransportRequest, credentials: [String]) async throws(OpenMarketError) -> ProductDetail {
        let response = try await exchange(request, credentials: credentials)
        guard !Self.isBlank(response.body) else {
            throw .undecodable(path: "", reason: "the answer was empty")
        }
        do {
            return try OpenMarketJSON.decodeDetail(response.body)
        } catch {
            // A reason may quote a value of the answer; an answer could echo a credential.
            throw ErrorMapping(credentials: credentials).redacted(error)
        }
    }

    /// Sends and accepts only a 2xx answer; anything else becomes its typed error.
    func exchange(_ request: TransportRequest, credentials: [String]) async throws(OpenMarketError) -> TransportResponse {
        let response = try await send(request, credentials: credentials)
        guard (200..<300).contains(response.status) else {
            throw ErrorMapping(credentials: credentials).statusFailure(response)
        }
        return response
    }

    func send(_ request: TransportRequest, credentials: [String]) async throws(OpenMarketError) -> TransportResponse {
        do {
            return try await transport.send(request)
        } catch {
            throw ErrorMapping(credentials: credentials).transportFailure(error)
        }
    }

    // MARK: text answers

    /// A text/plain answer without surrounding whitespace or JSON string quotes
    /// (`"OK"`, `"4f0c…"`, `"/api/products/…"` may come quoted, with `\/` escapes).
    static func plainText(_ body: Data) -> String {
        let text = (String(data: body, encoding: .utf8) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
        if case .string(let decoded)? = try? JSONValue.parse(Data(text.utf8)) {
            return decoded.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return String(text.dropFirst().dropLast()).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func isBlank(_ body: Data) -> Bool {
        body.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    /// The v2b archive answer as a URL on the API's own server: a path is appended to the base
    /// URL (like every endpoint); an absolute URL is accepted only on the same scheme, host and
    /// port, so the identifier is never sent elsewhere.
    func archivedURL(_ answer: String) throws(OpenMarketError) -> URL {
        let base = configuration.baseURL
        if answer.lowercased().hasPrefix("http://") || answer.lowercased().hasPrefix("https://") {
            guard let url = URL(string: answer), url.scheme?.lowercased() == base.scheme?.lowercased(),
                  url.host?.lowercased() == base.host?.lowercased(), url.port == base.port else {
                throw .undecodable(path: "", reason: "the archive answer points to another server")
            }
            return url
        }
        var path = answer.hasPrefix("/") ? answer : "/" + answer
        var query: String?
        if let mark = path.firstIndex(of: "?") {
            query = String(path[path.index(after: mark)...])
            path = String(path[..<mark])
        }
        // A server behind the same prefix may already include it.
        let prefix = requests.pathPrefix
        if !prefix.isEmpty, path.hasPrefix(prefix + "/") { path.removeFirst(prefix.count) }
        return requests.url(path: Self.pathEncoded(path), query: query.map(Self.pathEncoded))
    }

    /// Percent-encodes what may not appear literally in a URL path (spaces, quotes, non-ASCII),
    /// keeping existing `%XX` escapes and path separators.
    private static func pathEncoded(_ text: String) -> String {
        PercentEncoding.encode(text) { pathBytes.contains($0) }
    }

    private static let pathBytes = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/%".utf8)
}
