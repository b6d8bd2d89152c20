import Foundation

/// The 2021 API (`Dialect.v1`): its own calls, plus what the dialect-neutral calls
/// (`listProducts`, `product`, `delete`) need to work on it. The product password is a
/// credential: it is redacted from every error like the vendor secret.
extension OpenMarketClient {
    private var v1Requests: V1RequestFactory { V1RequestFactory(base: requests) }

    /// `GET /items/{page}`: 20 items, oldest first; an empty page means the end.
    /// `timeout`: at most this long (less than the configured timeout, for a walk over pages).
    public func v1Page(_ page: Int, timeout: TimeInterval? = nil) async throws(OpenMarketError) -> V1ListPage {
        var request = v1Requests.page(page)
        if let timeout { request.timeout = min(request.timeout, timeout) }
        let response = try await exchange(request, credentials: [])
        guard !Self.isBlank(response.body) else { return V1ListPage(page: page, items: []) }
        return try OpenMarketJSON.decodeV1ListPage(response.body)
    }

    public func v1Item(id: Int) async throws(OpenMarketError) -> V1ItemDetail {
        try await v1Detail(v1Requests.item(id: id), credentials: [])
    }

    /// Registers an item; validated first, nothing is sent when a rule is broken.
    public func v1Register(_ item: V1NewItem) async throws(OpenMarketError) -> V1ItemDetail {
        let issues = item.validate()
        guard issues.isEmpty else { throw .validation(issues) }
        return try await v1Detail(v1Requests.register(item, boundary: makeBoundary()), credentials: [item.password])
    }

    /// Edits an item; a wrong password is `.unauthorized`. Pass the current item to
    /// `V1ItemChanges.validate(current:)` beforehand to check the change against it.
    public func v1Edit(id: Int, _ changes: V1ItemChanges) async throws(OpenMarketError) -> V1ItemDetail {
        let issues = changes.validate(current: nil)
        guard issues.isEmpty else { throw .validation(issues) }
        return try await v1Detail(v1Requests.edit(id: id, changes, boundary: makeBoundary()),
                                  credentials: [changes.password])
    }

    /// Deletes an item with its password (`DELETE /item/{id}`, JSON body); answers the item as
    /// it was. A server that answers only `{"id":N}` (Jan 2021) gives an item with only the id.
    public func v1Delete(id: Int, password: String) async throws(OpenMarketError) -> V1ItemDetail {
        let issues = V1Rules.passwordIssues(password)
        guard issues.isEmpty else { throw .validation(issues) }
        let response = try await exchange(v1Requests.delete(id: id, password: password), credentials: [password])
        do {
            return try OpenMarketJSON.decodeV1Detail(response.body)
        } catch {
            return V1ItemDetail(id: id, title: "", descriptions: "", price: 0, currency: .KRW, stock: 0,
                                thumbnails: [], images: [], registrationDate: Date(timeIntervalSince1970: 0))
        }
    }

    private func v1Detail(_ request: TransportRequest, credentials: [String]) async throws(OpenMarketError) -> V1ItemDetail {
        let response = try await exchange(request, credentials: credentials)
        guard !Self.isBlank(response.body) else { throw .undecodable(path: "", reason: "the answer was empty") }
        do {
            return try OpenMarketJSON.decodeV1Detail(response.body)
        } catch {
            throw ErrorMapping(credentials: credentials).redacted(error)
        }
    }

    // MARK: dialect-neutral calls on v1

    /// v1 has no health endpoint: the API is up when its first page answers.
    func v1HealthCheck() async throws(OpenMarketError) -> Bool {
        let response = try await send(v1Requests.page(1), credentials: [])
        return response.status == 200
    }

    /// Every item, walking the pages until the empty one (at most `maxPages`).
    public func v1AllItems(maxPages: Int = 500) async throws(OpenMarketError) -> [V1ListItem] {
        try await v1AllPages(maxPages: maxPages).items
    }

    /// Every item, and a placeholder for each one that could not be read. The whole walk gets the
    /// configured timeout, not each page: an API that always answers a full page (slowly) cannot
    /// keep a list page waiting 500 timeouts long.
    public func v1AllPages(maxPages: Int = 500) async throws(OpenMarketError) -> (items: [V1ListItem], unreadable: [UnreadableProduct]) {
        var items: [V1ListItem] = []
        var unreadable: [UnreadableProduct] = []
        let deadline = Date().addingTimeInterval(configuration.timeout)
        for page in 1...max(1, maxPages) {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw .timeout }
            let answer = try await v1Page(page, timeout: remaining)
            let count = answer.items.count + answer.unreadable.count
            if count == 0 { break }
            items += answer.items
            unreadable += answer.unreadable
            if count < V1ListPage.itemsPerPage { break }
        }
        return (items, unreadable)
    }

    /// A v2-shaped page for the panel: v1 gives neither newest-first order, nor totals, nor
    /// search, so all pages are read and the page is cut from them here.
    func v1ProductListPage(page: Int, itemsPerPage: Int, search: String?) async throws(OpenMarketError) -> ProductListPage {
        let all = try await v1AllPages()
        var items = all.items.sorted { $0.id > $1.id }
        if let search, !search.isEmpty {
            items = items.filter { $0.title.range(of: search, options: [.caseInsensitive]) != nil }
        }
        let size = min(1_000, max(1, itemsPerPage))
        let pageNo = min(1_000_000, max(1, page))
        let total = items.count
        let lastPage = (total + size - 1) / size
        let start = min(total, (pageNo - 1) * size)
        let slice = items[start..<min(total, start + size)]
        // v1 gives no order to an unreadable item: the first page shows them all.
        let unreadable = pageNo == 1 ? all.unreadable : []
        guard !slice.isEmpty || !unreadable.isEmpty else { return .empty(pageNo: pageNo, itemsPerPage: size) }
        return ProductListPage(pageNo: pageNo, itemsPerPage: size, totalCount: total, offset: (pageNo - 1) * size,
                               limit: pageNo * size, lastPage: lastPage, hasNext: pageNo < lastPage, hasPrev: pageNo > 1,
                               pages: slice.map(\.productListItem), unreadable: unreadable)
    }
}
