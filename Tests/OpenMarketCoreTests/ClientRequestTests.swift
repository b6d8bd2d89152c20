import Foundation
import Testing
@testable import OpenMarketCore

/// Every call sends exactly the documented request, in both dialects.
@Suite struct ClientRequestTests {
    static let detailJSON = try! FixtureFiles.data("v2b-product-detail.json")
    static let identifierHeader = HeaderField(name: "identifier", value: TestVendor.identifier)
    static let acceptJSON = HeaderField(name: "Accept", value: "application/json")
    static let acceptText = HeaderField(name: "Accept", value: "text/plain")
    static let contentJSON = HeaderField(name: "Content-Type", value: "application/json")

    private func request(_ method: String, _ url: String, _ headers: [HeaderField], _ body: String? = nil) -> TransportRequest {
        TransportRequest(method: method, url: URL(string: url)!, headers: headers, body: body.map { Data($0.utf8) }, timeout: 10)
    }

    @Test(arguments: [Dialect.v2a, .v2b])
    func healthCheck(dialect: Dialect) async throws {
        let (client, stub) = TestVendor.client(dialect, [.text(#""OK""#), .text("OK\n"), .text("DOWN"), .empty(status: 503)])
        #expect(try await client.healthCheck())
        #expect(try await client.healthCheck())
        #expect(try await !client.healthCheck())
        #expect(try await !client.healthCheck())
        #expect(await stub.requests == Array(repeating: request("GET", "http://api.test/healthChecker", [Self.acceptText]), count: 4))
    }

    @Test(arguments: [Dialect.v2a, .v2b])
    func listWithoutSearch(dialect: Dialect) async throws {
        let (client, stub) = TestVendor.client(dialect, [.json(try FixtureFiles.data("\(dialect)-list-page.json"))])
        let page = try await client.listProducts(page: 2, itemsPerPage: 20)
        #expect(!page.pages.isEmpty)
        #expect(await stub.requests == [request("GET", "http://api.test/api/products?page_no=2&items_per_page=20", [Self.acceptJSON])])
    }

    @Test(arguments: [Dialect.v2a, .v2b])
    func searchIsPercentEncodedIncludingKorean(dialect: Dialect) async throws {
        let (client, stub) = TestVendor.client(dialect, [.empty(status: 204), .empty(status: 204)])
        _ = try await client.listProducts(page: 1, itemsPerPage: 10, search: "커피 잔&a=b+c%/?#")
        _ = try await client.listProducts(page: 1, itemsPerPage: 10, search: "")
        let urls = await stub.requests.map(\.url.absoluteString)
        #expect(urls == [
            "http://api.test/api/products?page_no=1&items_per_page=10&search_value=%EC%BB%A4%ED%94%BC%20%EC%9E%94%26a%3Db%2Bc%25%2F%3F%23",
            "http://api.test/api/products?page_no=1&items_per_page=10",
        ])
    }

    @Test func a204ListAnswerIsAnEmptyPage() async throws {
        let (client, _) = TestVendor.client(.v2a, [.empty(status: 204), .text("", status: 200)])
        let page = try await client.listProducts(page: 3, itemsPerPage: 20)
        #expect(page == ProductListPage(pageNo: 3, itemsPerPage: 20, totalCount: 0, offset: 40, limit: 60,
                                        lastPage: 0, hasNext: false, hasPrev: true, pages: []))
        #expect(try await client.listProducts(page: 1, itemsPerPage: 20) == .empty(pageNo: 1, itemsPerPage: 20))
    }

    @Test func aBasePathPrefixIsKept() async throws {
        let (client, stub) = TestVendor.client(.v2a, base: "http://127.0.0.1:8081/market/", [.json(Self.detailJSON)])
        _ = try await client.product(id: 32)
        #expect(await stub.requests == [request("GET", "http://127.0.0.1:8081/market/api/products/32", [Self.acceptJSON])])
    }

    @Test(arguments: [Dialect.v2a, .v2b])
    func productDetail(dialect: Dialect) async throws {
        let (client, stub) = TestVendor.client(dialect, [.json(Self.detailJSON)])
        let detail = try await client.product(id: 32)
        #expect(detail.id == 32 && detail.images.count == 2)
        #expect(await stub.requests == [request("GET", "http://api.test/api/products/32", [Self.acceptJSON])])
    }

    @Test(arguments: [Dialect.v2a, .v2b])
    func createSendsMultipartWithTheDialectsTextKey(dialect: Dialect) async throws {
        let (client, stub) = TestVendor.client(dialect, [.json(Self.detailJSON)])
        let draft = NewProduct(name: "Mug \"blue\"", description: "A blue mug / 파란 머그", price: 12.5, currency: .USD,
                               discountedPrice: 2.5, stock: 3,
                               images: [ImageUpload(filename: "mug.png", data: SampleImage.png),
                                        ImageUpload(filename: "side.gif", data: SampleImage.gif)])
        let detail = try await client.create(draft)
        #expect(detail.id == 32)
        let key = dialect == .v2a ? "descriptions" : "description"
        let params = #"{"currency":"USD","\#(key)":"A blue mug / 파란 머그","discounted_price":2.5,"name":"Mug \"blue\"","price":12.5,"secret":"rwbyQk9Z#Vx","stock":3}"#
        let body = MultipartEncoder(boundary: "TestBoundary42").encode(params: Data(params.utf8), images: draft.images)
        let expected = TransportRequest(
            method: "POST", url: URL(string: "http://api.test/api/products")!,
            headers: [Self.identifierHeader,
                      HeaderField(name: "Content-Type", value: "multipart/form-data; boundary=TestBoundary42"),
                      Self.acceptJSON],
            body: body, timeout: 10)
        #expect(await stub.requests == [expected])
        // The params part, as bytes on the wire.
        let wire = String(decoding: await stub.requests[0].body ?? Data(), as: UTF8.self)
        #expect(wire.hasPrefix("--TestBoundary42\r\nContent-Disposition: form-data; name=\"params\"\r\nContent-Type: application/json\r\n\r\n\(params)\r\n--TestBoundary42\r\n"))
    }

    @Test func wholeMoneyIsWrittenAsAJSONNumber() async throws {
        let (client, stub) = TestVendor.client(.v2a, [.json(Self.detailJSON)])
        _ = try await client.create(NewProduct(name: "Big TV", description: "A very big television.", price: 60_000_000,
                                               currency: .KRW, images: [ImageUpload(filename: "tv.jpg", data: SampleImage.jpeg)]))
        let wire = String(decoding: await stub.requests[0].body ?? Data(), as: UTF8.self)
        #expect(wire.contains(#"{"currency":"KRW","descriptions":"A very big television.","discounted_price":0,"name":"Big TV","price":60000000,"secret":"rwbyQk9Z#Vx","stock":0}"#))
    }

    @Test func anInvalidDraftIsNeverSent() async throws {
        let (client, stub) = TestVendor.client(.v2a, [.json(Self.detailJSON)])
        let draft = NewProduct(name: "x", description: "", price: -1, currency: .KRW, images: [])
        await #expect(throws: OpenMarketError.validation(draft.validate())) { try await client.create(draft) }
        #expect(draft.validate().count == 4)
        #expect(await stub.requests.isEmpty)
    }

    @Test(arguments: [Dialect.v2a, .v2b])
    func updateSendsSecretAndOnlyTheChangedFields(dialect: Dialect) async throws {
        let (client, stub) = TestVendor.client(dialect, [.json(Self.detailJSON), .json(Self.detailJSON)])
        _ = try await client.update(id: 32, changes: ProductChanges(name: "New name", description: "New description",
                                                                      thumbnailID: 36, price: 4000, currency: .USD,
                                                                      discountedPrice: 0.5, stock: 0))
        _ = try await client.update(id: 7, changes: ProductChanges(stock: 5))
        let key = dialect == .v2a ? "descriptions" : "description"
        #expect(await stub.requests == [
            request("PATCH", "http://api.test/api/products/32", [Self.identifierHeader, Self.contentJSON, Self.acceptJSON],
                    #"{"currency":"USD","\#(key)":"New description","discounted_price":0.5,"name":"New name","price":4000,"secret":"rwbyQk9Z#Vx","stock":0,"thumbnail_id":36}"#),
            request("PATCH", "http://api.test/api/products/7", [Self.identifierHeader, Self.contentJSON, Self.acceptJSON],
                    #"{"secret":"rwbyQk9Z#Vx","stock":5}"#),
        ])
    }

    @Test func invalidChangesAreNeverSent() async throws {
        let (client, stub) = TestVendor.client(.v2a, [])
        await #expect(throws: OpenMarketError.validation([FieldIssue(field: "stock", message: "The stock cannot be negative.")])) {
            try await client.update(id: 1, changes: ProductChanges(stock: -1))
        }
        #expect(await stub.requests.isEmpty)
    }

    @Test func v2aDeleteAsksForTheProductSecretThenDeletesWithIt() async throws {
        let productSecret = "0b7a1e32-5d3e-11ed-9b6a-0242ac120002"
        let (client, stub) = TestVendor.client(.v2a, [.text(productSecret + "\n"), .json(Self.detailJSON)])
        let deleted = try await client.delete(id: 32, password: TestVendor.password)
        #expect(deleted.id == 32)
        #expect(await stub.requests == [
            request("POST", "http://api.test/api/products/32/secret", [Self.identifierHeader, Self.contentJSON, Self.acceptText],
                    #"{"secret":"typed-by-the-seller"}"#),
            request("DELETE", "http://api.test/api/products/32/\(productSecret)", [Self.identifierHeader, Self.acceptJSON]),
        ])
    }

    @Test func v2aProductSecretIsPercentEncodedInThePath() async throws {
        let (client, stub) = TestVendor.client(.v2a, [.text(#""a/b c""#), .json(Self.detailJSON)])
        _ = try await client.delete(id: 5, password: "pw-pw")
        #expect(await stub.requests.last?.url.absoluteString == "http://api.test/api/products/5/a%2Fb%20c")
    }

    @Test(arguments: [
        "/api/products/tok-123", "\"/api/products/tok-123\"", "  /api/products/tok-123\r\n", "\"\\/api\\/products\\/tok-123\"",
        "api/products/tok-123", "http://api.test/api/products/tok-123",
    ])
    func v2bDeleteArchivesThenDeletesTheAnsweredPath(answer: String) async throws {
        let (client, stub) = TestVendor.client(.v2b, [.text(answer), .json(Self.detailJSON)])
        let deleted = try await client.delete(id: 32, password: TestVendor.password)
        #expect(deleted.id == 32)
        #expect(await stub.requests == [
            request("POST", "http://api.test/api/products/32/archived", [Self.identifierHeader, Self.contentJSON, Self.acceptText],
                    #"{"secret":"typed-by-the-seller"}"#),
            request("DELETE", "http://api.test/api/products/tok-123", [Self.identifierHeader, Self.acceptJSON]),
        ])
    }

    @Test func v2bArchivedPathIsResolvedAgainstAPrefixedBase() async throws {
        for answer in ["/api/products/tok", "/market/api/products/tok"] {
            let (client, stub) = TestVendor.client(.v2b, base: "http://h:9/market", [.text(answer), .json(Self.detailJSON)])
            _ = try await client.delete(id: 1, password: "pw-pw")
            #expect(await stub.requests.last?.url.absoluteString == "http://h:9/market/api/products/tok")
        }
    }

    @Test func v2bArchivedURLOnAnotherServerIsRefusedBeforeSendingTheIdentifier() async throws {
        for answer in ["http://evil.test/api/products/tok", "https://api.test/api/products/tok", "http://api.test:8080/x"] {
            let (client, stub) = TestVendor.client(.v2b, [.text(answer), .json(Self.detailJSON)])
            await #expect(throws: OpenMarketError.undecodable(path: "", reason: "the archive answer points to another server")) {
                try await client.delete(id: 1, password: "pw-pw")
            }
            #expect(await stub.requests.count == 1)
        }
    }

    @Test func anEmptyFirstDeleteAnswerStops() async throws {
        let (client, stub) = TestVendor.client(.v2a, [.text("  \n")])
        await #expect(throws: OpenMarketError.undecodable(path: "", reason: "the API's answer to the first delete step was empty")) {
            try await client.delete(id: 1, password: "pw-pw")
        }
        #expect(await stub.requests.count == 1)
    }

    @Test func anEmptyPasswordIsNeverSent() async throws {
        let (client, stub) = TestVendor.client(.v2b, [])
        await #expect(throws: OpenMarketError.validation([FieldIssue(field: "password", message: "Enter your vendor password to delete.")])) {
            try await client.delete(id: 1, password: "")
        }
        #expect(await stub.requests.isEmpty)
    }

    @Test func missingCredentialsAreReportedBeforeSending() async throws {
        let stub = StubTransport([])
        let client = OpenMarketClient(configuration: ClientConfiguration(baseURL: URL(string: "http://api.test")!,
                                                                         identifier: "", secret: ""), transport: stub)
        await #expect(throws: OpenMarketError.validation([
            FieldIssue(field: "", message: "No vendor identifier is configured."),
            FieldIssue(field: "secret", message: "No vendor secret is configured."),
        ])) { try await client.update(id: 1, changes: ProductChanges(stock: 1)) }
        #expect(await stub.requests.isEmpty)
    }

    @Test func anIdentifierThatCannotBeAHeaderValueIsNeverSent() async throws {
        for identifier in ["abc\r\nX-Injected: 1", "with space", "카드", "tab\t"] {
            let stub = StubTransport([])
            let client = OpenMarketClient(configuration: ClientConfiguration(baseURL: URL(string: "http://api.test")!,
                                                                             identifier: identifier, secret: "s3cret"), transport: stub)
            let expected = OpenMarketError.validation([
                FieldIssue(field: "", message: "The configured vendor identifier contains characters that cannot be sent.")])
            await #expect(throws: expected) { try await client.update(id: 1, changes: ProductChanges(stock: 1)) }
            await #expect(throws: expected) { try await client.delete(id: 1, password: "pw-pw") }
            await #expect(throws: expected) { try await client.create(NewProductValidationTests.valid) }
            #expect(await stub.requests.isEmpty)
            #expect(!expected.description.contains(identifier))
        }
    }

    @Test func theConfiguredTimeoutTravelsWithEveryRequest() async throws {
        let stub = StubTransport([.json(Self.detailJSON)])
        var configuration = TestVendor.configuration(.v2a)
        configuration.timeout = 2.5
        _ = try await OpenMarketClient(configuration: configuration, transport: stub).product(id: 1)
        #expect(await stub.requests.first?.timeout == 2.5)
    }
}

/// One client value is shared by every request handler of the panel.
@Suite struct ClientConcurrencyTests {
    @Test func manyConcurrentCallsThroughOneClient() async throws {
        let detail = try FixtureFiles.data("v2a-product-detail.json")
        let (client, stub) = TestVendor.client(.v2a, Array(repeating: .json(detail), count: 64))
        let ids = try await withThrowingTaskGroup(of: Int.self) { group in
            for id in 1...64 {
                group.addTask { _ = try await client.product(id: id); return id }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(ids.sorted() == Array(1...64))
        let paths = await stub.requests.map(\.url.path)
        #expect(Set(paths) == Set((1...64).map { "/api/products/\($0)" }))
    }
}
