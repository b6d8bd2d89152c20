import Foundation
import Testing
import OpenMarketCore
@testable import AdminPanel

/// Sort and filter semantics of the local catalog copy, `back=` validation and CSV cells.
@Suite struct CatalogQueryTests {
    static func product(_ id: Int, name: String = "Item", vendor: Int = 1, vendorName: String? = nil,
                        price: Double = 1000, discount: Double = 0, stock: Int = 1, currency: Currency = .KRW,
                        issuedDay: Double = 0, changed: Double = 0) -> CatalogProduct {
        CatalogProduct(id: id, vendorID: vendor, vendorName: vendorName, name: name, thumbnail: "http://api/t/\(id).png",
                       currency: currency, price: price, bargainPrice: price - discount, discountedPrice: discount,
                       stock: stock, createdAt: Date(timeIntervalSince1970: 86_400),
                       issuedAt: Date(timeIntervalSince1970: 86_400 * (1 + issuedDay)),
                       changedAt: Date(timeIntervalSince1970: 1_000_000 + changed))
    }

    static func query(_ items: [String: String]) -> CatalogQuery {
        CatalogQuery({ items[$0] })
    }

    static func ids(_ snapshot: CatalogSnapshot, _ items: [String: String], vendor: Int? = 1) -> [Int] {
        snapshot.page(query(items), ownVendorID: vendor).products.map(\.id)
    }

    @Test func unknownValuesFallBackToDefaults() {
        let odd = Self.query(["sort": "cheapest", "show": "theirs", "stock": "some", "discounted": "yes",
                              "currency": "EUR", "per_page": "1000000000", "page": "-1", "view": "<b>"])
        #expect(odd == CatalogQuery())
        #expect(odd.isPlainNewestFirst)
        let big = Self.query(["page": "99999999999999999999", "per_page": "-20"])
        #expect(big.page == 1 && big.perPage == 20)
        #expect(Self.query(["page": "2000000000"]).page == CatalogQuery.maxPage)
        let chosen = Self.query(["sort": "-price", "show": "mine", "stock": "sold-out", "discounted": "1",
                                 "currency": "USD", "per_page": "50", "page": "3", "view": "grid", "q": "  컵 "])
        #expect(chosen.sort == .priceDescending && chosen.show == .mine && chosen.stock == .soldOut)
        #expect(chosen.discountedOnly && chosen.currency == .USD && chosen.perPage == 50 && chosen.page == 3)
        #expect(chosen.url() == "/products?page=3&view=grid&q=%EC%BB%B5&sort=-price&show=mine&stock=sold-out&discounted=1&currency=USD&per_page=50")
        #expect(chosen.exportURL == "/products/export.csv?view=grid&q=%EC%BB%B5&sort=-price&show=mine&stock=sold-out&discounted=1&currency=USD&per_page=50")
    }

    @Test func priceSortsCompareTheBargainPriceAndBreakTiesByID() {
        let snapshot = CatalogSnapshot([
            Self.product(1, price: 10_000, discount: 6_000),   // pays 4,000
            Self.product(2, price: 5_000),                      // pays 5,000
            Self.product(3, price: 4_000),                      // pays 4,000 (tie with 1)
            Self.product(4, price: 9_000, discount: 500),       // pays 8,500
        ])
        #expect(Self.ids(snapshot, ["sort": "price"]) == [1, 3, 2, 4])
        #expect(Self.ids(snapshot, ["sort": "-price"]) == [4, 2, 1, 3])
        #expect(Self.ids(snapshot, ["sort": "newest"]) == [4, 3, 2, 1])
        #expect(Self.ids(snapshot, ["sort": "oldest"]) == [1, 2, 3, 4])
    }

    @Test func stockNameAndUpdatedOrders() {
        let snapshot = CatalogSnapshot([
            Self.product(1, name: "banana", stock: 5, issuedDay: 1, changed: 10),
            Self.product(2, name: "Apple", stock: 0, issuedDay: 2, changed: 0),
            Self.product(3, name: "cherry", stock: 5, issuedDay: 1, changed: 20),
            Self.product(4, name: "apple", stock: 9, issuedDay: 0, changed: 30),
        ])
        #expect(Self.ids(snapshot, ["sort": "stock"]) == [2, 1, 3, 4])
        #expect(Self.ids(snapshot, ["sort": "-stock"]) == [4, 1, 3, 2])
        #expect(Self.ids(snapshot, ["sort": "name"]) == [2, 4, 1, 3])
        // Latest day first; within a day, the change the copy saw last.
        #expect(Self.ids(snapshot, ["sort": "updated"]) == [2, 3, 1, 4])
    }

    @Test func filtersCombineAndCountTheFilteredSet() {
        let snapshot = CatalogSnapshot([
            Self.product(1, vendor: 1, discount: 100, stock: 0),
            Self.product(2, vendor: 2, discount: 100, stock: 0),
            Self.product(3, vendor: 1, stock: 0, currency: .USD),
            Self.product(4, vendor: 1, discount: 100, stock: 3),
            Self.product(5, vendor: 1, discount: 100, stock: 0, currency: .USD),
        ])
        #expect(Self.ids(snapshot, ["show": "mine", "stock": "sold-out", "sort": "oldest"]) == [1, 3, 5])
        #expect(Self.ids(snapshot, ["show": "mine", "stock": "sold-out", "discounted": "1"]) == [5, 1])
        #expect(Self.ids(snapshot, ["currency": "USD"]) == [5, 3])
        #expect(Self.ids(snapshot, ["stock": "in-stock"]) == [4])
        // "Mine" while the panel does not know its vendor keeps nothing.
        #expect(Self.ids(snapshot, ["show": "mine"], vendor: nil) == [])
        let page = snapshot.page(Self.query(["stock": "sold-out"]), ownVendorID: 1)
        #expect(page.totalCount == 4 && page.lastPage == 1)
    }

    @Test func pagesPastTheEndShowTheLastPage() {
        let snapshot = CatalogSnapshot((1...45).map { Self.product($0) })
        let last = snapshot.page(Self.query(["sort": "oldest", "page": "9"]), ownVendorID: nil)
        #expect(last.pageNo == 3 && last.lastPage == 3 && last.totalCount == 45)
        #expect(last.products.map(\.id) == Array(41...45))
        let fifty = snapshot.page(Self.query(["sort": "oldest", "per_page": "50"]), ownVendorID: nil)
        #expect(fifty.products.count == 45 && fifty.lastPage == 1)
    }

    @Test func searchIgnoresSpacesAndCase() {
        let snapshot = CatalogSnapshot([
            Self.product(1, name: "무선 키보드"),
            Self.product(2, name: "Wireless Mouse", vendorName: "Keyboard Shop"),
            Self.product(3, name: "유선 마우스"),
        ])
        #expect(Self.ids(snapshot, ["q": "무선키보드"]) == [1])
        #expect(Self.ids(snapshot, ["q": "무선 키보드"]) == [1])
        #expect(Self.ids(snapshot, ["q": "wirelessmouse"]) == [2])
        #expect(Self.ids(snapshot, ["q": "KEYBOARD shop"]) == [2])
        #expect(Self.ids(snapshot, ["q": "%"]) == [])
    }

    @Test func backAcceptsOnlyLocalListURLs() {
        #expect(BackLink.validated("/products?page=7&view=grid&sort=-price") == "/products?page=7&view=grid&sort=-price")
        #expect(BackLink.validated("/products") == "/products")
        for bad in ["//evil.example/products", "https://evil.example/", "/products\r\nSet-Cookie: x=1", "/\\evil.example",
                    "/productsX", "/products/5/delete", "javascript:alert(1)", "", "/products?q=무선",
                    "/products?" + String(repeating: "a", count: 2000), "/products?q=a b"] {
            #expect(BackLink.validated(bad) == nil, "accepted \(bad)")
        }
        #expect(BackLink.target("//evil.example") == "/products")
        #expect(BackLink.link("/products/5", back: "/products?page=2&view=list")
                == "/products/5?back=%2Fproducts%3Fpage%3D2%26view%3Dlist")
        #expect(BackLink.link("/products/5", back: "https://evil.example") == "/products/5")
    }

    @Test func csvCellsAreQuotedAndDefusedAgainstFormulas() {
        #expect(CatalogCSV.cell("plain") == "plain")
        #expect(CatalogCSV.cell("무선 키보드") == "무선 키보드")
        #expect(CatalogCSV.cell("a,b") == "\"a,b\"")
        #expect(CatalogCSV.cell("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CatalogCSV.cell("two\nlines") == "\"two\nlines\"")
        #expect(CatalogCSV.cell("=SUM(A1:A2)") == "'=SUM(A1:A2)")
        #expect(CatalogCSV.cell("+82") == "'+82")
        #expect(CatalogCSV.cell("-1") == "'-1")
        #expect(CatalogCSV.cell("@cmd") == "'@cmd")
        #expect(CatalogCSV.cell("\tx") == "'\tx")
        #expect(CatalogCSV.cell("\r\n=1") == "\"'\r\n=1\"")
        #expect(CatalogCSV.cell("=\"x\",y") == "\"'=\"\"x\"\",y\"")
        #expect(CatalogCSV.cell("a=b") == "a=b")
        let row = CatalogCSV.row(Self.product(7, name: "=무선, 키보드", vendorName: "가게", price: 12.5, discount: 2.5, currency: .USD))
        #expect(row == "7,\"'=무선, 키보드\",가게,USD,12.50,2.50,10.00,1,1970-01-02,1970-01-02,http://api/t/7.png\r\n")
        #expect(CatalogCSV.row(Self.product(8, price: 12000)).hasPrefix("8,Item,1,KRW,12000,0,12000,1,"))
    }

    @Test func theCopyKeepsThePanelsLaterWritesOverAnOlderSync() {
        let copy = CatalogCopy()
        _ = copy.applySync([Self.product(1), Self.product(2)], startedAt: copy.currentGeneration, fetchedAt: Date())
        let started = copy.currentGeneration
        _ = copy.record(Self.product(3, name: "new here"))           // registered while the sync ran
        _ = copy.record(Self.product(1, name: "edited here"))
        _ = copy.remove(id: 2)
        let changes = copy.applySync([Self.product(1), Self.product(2)], startedAt: started, fetchedAt: Date())
        #expect(changes.isEmpty)
        let snapshot = copy.snapshot()
        #expect(snapshot.products.map(\.id).sorted() == [1, 3])
        #expect(snapshot.product(id: 1)?.name == "edited here")
        // The next sync started after those writes: the API's answer wins again.
        let later = copy.applySync([Self.product(1, name: "edited elsewhere")], startedAt: copy.currentGeneration, fetchedAt: Date())
        #expect(later.upserted.map(\.id) == [1] && later.deleted == [3])
        #expect(copy.snapshot().products.map(\.name) == ["edited elsewhere"])
    }

    /// As the panel opens it at start (blocking calls, outside async code).
    static func openCatalog(_ folder: URL) throws -> CatalogDatabase {
        try CatalogDatabase(PanelDatabase(directory: folder).writer)
    }

    static func load(_ database: CatalogDatabase) throws -> (products: [CatalogProduct], syncedAt: Date?) {
        try database.loadAll()
    }

    @Test func theDatabaseKeepsTheCopyAcrossRestarts() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let synced = Date(timeIntervalSince1970: 1_700_000_123)
        do {
            let database = try Self.openCatalog(folder)
            try await database.persist(.init(upserted: [Self.product(1, name: "무선 키보드", vendorName: "가게"), Self.product(2)]),
                                       syncedAt: synced)
            try await database.persist(.init(deleted: [2]), syncedAt: nil)
        }
        let stored = try Self.load(try Self.openCatalog(folder))
        #expect(stored.products == [Self.product(1, name: "무선 키보드", vendorName: "가게")])
        #expect(stored.syncedAt == synced)
    }
}
