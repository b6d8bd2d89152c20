import Foundation
import Testing
import TestSupport
import OpenMarketCore
import OpenMarketSandbox
@testable import AdminPanel

/// `GET` and `POST /products/sheet` against the sandbox: what is shown, what is sent (only the
/// changed fields, counted at the sandbox), conflicts, refusals, the activity run and its revert.
@Suite(.awaitsTeardown) struct SheetRouteTests {
    static let other = VendorSeed(name: "other", identifier: "5b1f6c1e-0000-4000-8000-000000000002", secret: "other-secret-123")

    /// Every named input of a page with its value, in page order (what a browser without JS posts).
    static func inputs(_ page: RawResponse) -> [(String, String)] {
        var result: [(String, String)] = []
        for part in page.text.components(separatedBy: "<input").dropFirst() {
            let tag = part.prefix { $0 != ">" }
            guard let name = attribute("name", in: tag), let value = attribute("value", in: tag) else { continue }
            result.append((name, value))
        }
        return result
    }

    static func attribute(_ name: String, in tag: Substring) -> String? {
        guard let start = tag.range(of: " \(name)=\"") else { return nil }
        let value = tag[start.upperBound...].prefix { $0 != "\"" }
        return value.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The page's form with some cells typed over.
    static func form(_ page: RawResponse, typing: [String: String]) -> [(String, String)] {
        inputs(page).filter { $0.0 != "q" }.map { name, value in (name, typing[name] ?? value) }
    }

    struct Setup {
        var harness: PanelHarness
        var mine: [ProductDetail]
        var foreign: ProductDetail
        var writes: LockedCounter
    }

    static func setUp(signIn: Bool = false) async throws -> Setup {
        let writes = LockedCounter()
        let harness = try await PanelHarness.start(.init(live: true, signIn: signIn, otherVendor: other, sandboxObserver: { entry in
            if entry.method == "PATCH" { writes.add() }
        }))
        Teardown.add { await harness.stop() }
        if signIn { try await harness.setUpOwner() }
        var mine: [ProductDetail] = []
        for n in 0..<3 {
            mine.append(try await CatalogRouteTests.make(harness, "Sheet product \(n)", price: 10_000, discount: 1_000, stock: 5))
        }
        let foreignAPI = OpenMarketClient(configuration: ClientConfiguration(
            baseURL: harness.client.baseURL, dialect: .v2a, identifier: other.identifier, secret: other.secret, timeout: 60),
            transport: harness.transport)
        let foreign = try await foreignAPI.create(NewProduct(name: "Not mine", description: "Another vendor's product.",
            price: 5000, currency: .KRW, discountedPrice: 0, stock: 1, images: [ImageUpload(filename: "a.png", data: TestImages.png())]))
        await harness.panel.app.upstream.catalog.sync()
        return Setup(harness: harness, mine: mine, foreign: foreign, writes: writes)
    }

    @Test func showsOwnProductsAsInputsOthersAsTextAndLinksBothWays() async throws {
        let setup = try await Self.setUp()
        let browser = setup.harness.browser
        let list = try await browser.get("/products?sort=oldest&q=product")
        #expect(list.text.contains("href=\"/products/sheet?page=1&amp;q=product&amp;sort=oldest\" data-sheet-link"))
        let sheet = try await browser.get("/products/sheet?sort=oldest&per_page=200")
        #expect(sheet.status == 200)
        #expect(sheet.text.contains("<table class=\"sheet\" data-sheet role=\"table\">"))
        for product in setup.mine {
            #expect(sheet.text.contains("<tr data-sheet-row=\"\(product.id)\" role=\"row\">"))
            for field in ["name", "price", "discounted_price", "stock"] {
                #expect(sheet.text.contains("name=\"\(product.id).\(field)\""))
                #expect(sheet.text.contains("data-sheet-cell=\"\(product.id):\(field)\""))
                #expect(sheet.text.contains("name=\"\(product.id).was.\(field)\""))
            }
        }
        let foreignID = setup.foreign.id
        #expect(sheet.text.contains("<tr data-sheet-row=\"\(foreignID)\" role=\"row\">"))
        #expect(!sheet.text.contains("name=\"\(foreignID).price\""))
        #expect(sheet.text.contains("₩5,000"))
        #expect(sheet.text.contains("data-sheet-back"))
        #expect(sheet.text.contains("<script src=\"/static/sheet.js\" defer></script>"))
        // The list page loads no sheet script.
        #expect(!list.text.contains("sheet.js"))
        let korean = try await browser.get("/products/sheet?lang=ko")
        #expect(korean.text.contains("판매가") && korean.text.contains("즉시할인 금액") && korean.text.contains("재고수량"))
    }

    @Test func sendsOnlyChangedFieldsAndKeepsWhatColleaguesChanged() async throws {
        let setup = try await Self.setUp()
        let (harness, mine) = (setup.harness, setup.mine)
        let sheet = try await harness.browser.get("/products/sheet?sort=oldest")
        // Meanwhile a colleague changes fields the seller does not touch.
        _ = try await harness.api.update(id: mine[0].id, changes: ProductChanges(name: "Renamed by a colleague"))
        _ = try await harness.api.update(id: mine[2].id, changes: ProductChanges(stock: 42))
        // The sandbox logs a request after answering it: wait for the colleague's two PATCHes.
        #expect(await eventually { setup.writes.value == 2 })
        let before = setup.writes.value
        // Without JS every input is posted.
        let answer = try await harness.browser.post("/products/sheet", form: Self.form(sheet, typing: [
            "\(mine[0].id).price": "₩12,000", "\(mine[1].id).stock": "7"]))
        #expect(answer.status == 200)
        #expect(answer.text.contains("data-sheet-saved=\"\(mine[0].id):price\""))
        #expect(answer.text.contains("data-sheet-saved=\"\(mine[1].id):stock\""))
        #expect(answer.text.components(separatedBy: "data-sheet-saved=").count - 1 == 2)
        #expect(answer.text.contains("role=\"status\" data-sheet-summary"))
        #expect(await eventually { setup.writes.value - before >= 2 })
        #expect(setup.writes.value - before == 2)   // one PATCH per changed product, none for the third
        let first = try await harness.api.product(id: mine[0].id)
        #expect(first.price == 12_000 && first.name == "Renamed by a colleague")
        #expect(try await harness.api.product(id: mine[1].id).stock == 7)
        #expect(try await harness.api.product(id: mine[2].id).stock == 42)
        let rows = try await harness.panel.app.stores.activity.list(ActivityLog.Filter(action: "sheet"), page: 1, pageSize: 50).rows
        #expect(rows.count == 2)
        #expect(Set(rows.compactMap(\.entry.runID)).count == 1)
        let changes = Dictionary(uniqueKeysWithValues: rows.map { ($0.entry.productID ?? 0, $0.entry.changes) })
        #expect(changes[mine[0].id] == [.init(field: "price", old: "10000", new: "12000")])
        #expect(changes[mine[1].id] == [.init(field: "stock", old: "5", new: "7")])
    }

    @Test func aColleaguesChangeIsNotOverwrittenAndTheRestIsSaved() async throws {
        let setup = try await Self.setUp()
        let (harness, mine) = (setup.harness, setup.mine)
        let sheet = try await harness.browser.get("/products/sheet?sort=oldest")
        _ = try await harness.api.update(id: mine[0].id, changes: ProductChanges(price: 15_000))
        let answer = try await harness.browser.post("/products/sheet", form: Self.form(sheet, typing: [
            "\(mine[0].id).price": "11,000", "\(mine[0].id).stock": "9"]))
        #expect(answer.status == 200)
        #expect(answer.text.contains("data-sheet-conflict=\"\(mine[0].id):price\""))
        #expect(answer.text.contains("data-sheet-saved=\"\(mine[0].id):stock\""))
        #expect(answer.text.contains("role=\"alert\" data-sheet-summary"))
        // The typed value stays on its cell, now against the colleague's value: saving again replaces it.
        #expect(answer.text.contains("name=\"\(mine[0].id).price\" value=\"11,000\""))
        #expect(answer.text.contains("name=\"\(mine[0].id).was.price\" value=\"15000\""))
        let now = try await harness.api.product(id: mine[0].id)
        #expect(now.price == 15_000 && now.stock == 9)
    }

    @Test func anyInvalidCellRefusesTheWholeSaveKeepingEveryTypedValue() async throws {
        let setup = try await Self.setUp()
        let (harness, mine) = (setup.harness, setup.mine)
        let sheet = try await harness.browser.get("/products/sheet?sort=oldest")
        let before = setup.writes.value
        let longName = String(repeating: "가", count: 101)
        let typed = ["\(mine[0].id).price": "12,000.5", "\(mine[1].id).stock": "-1",
                     "\(mine[2].id).discounted_price": "₩20,000", "\(mine[1].id).name": longName,
                     "\(mine[2].id).stock": "8"]
        let answer = try await harness.browser.post("/products/sheet", form: Self.form(sheet, typing: typed))
        #expect(answer.status == 422)
        for cell in ["\(mine[0].id):price", "\(mine[1].id):stock", "\(mine[2].id):discounted_price", "\(mine[1].id):name"] {
            #expect(answer.text.contains("data-sheet-error=\"\(cell)\""), "no error on \(cell)")
        }
        #expect(!answer.text.contains("data-sheet-error=\"\(mine[2].id):stock\""))
        for (name, value) in typed {
            #expect(answer.text.contains("name=\"\(name)\" value=\"\(value)\""), "lost \(name)")
        }
        #expect(answer.text.contains("data-sheet-problems"))
        #expect(answer.text.contains("whole won"))
        #expect(setup.writes.value == before)
        #expect(try await harness.api.product(id: mine[2].id).stock == 5)
    }

    @Test func theSaveIsOneActivityRunThatReverts() async throws {
        let setup = try await Self.setUp()
        let (harness, mine) = (setup.harness, setup.mine)
        let sheet = try await harness.browser.get("/products/sheet?sort=oldest")
        let answer = try await harness.browser.post("/products/sheet", form: Self.form(sheet, typing: [
            "\(mine[0].id).price": "9000", "\(mine[1].id).discounted_price": "2,000", "\(mine[2].id).name": "Sheet product renamed"]))
        #expect(answer.status == 200)
        let activity = try await harness.browser.get("/activity")
        let run = try #require(activity.text.components(separatedBy: "data-bulk-run=\"").dropFirst().first?.prefix { $0 != "\"" })
        #expect(activity.text.contains("data-action=\"sheet\""))
        let token = try #require(activity.inputValue("csrf_token"))
        let revert = try await harness.browser.post("/activity/bulk/\(run)/revert", form: [("csrf_token", token)])
        #expect(revert.status == 200)
        #expect(try await harness.api.product(id: mine[0].id).price == 10_000)
        #expect(try await harness.api.product(id: mine[1].id).discountedPrice == 1_000)
        #expect(try await harness.api.product(id: mine[2].id).name == "Sheet product 2")
    }

    @Test func aProductDeletedMeanwhileFailsItsRowAndTheRestIsSaved() async throws {
        let setup = try await Self.setUp()
        let (harness, mine) = (setup.harness, setup.mine)
        let sheet = try await harness.browser.get("/products/sheet?sort=oldest")
        _ = try await harness.api.delete(id: mine[1].id, password: harness.demoSecret)
        let answer = try await harness.browser.post("/products/sheet", form: Self.form(sheet, typing: [
            "\(mine[0].id).stock": "11", "\(mine[1].id).stock": "12"]))
        #expect(answer.status == 200)
        #expect(answer.text.contains("<tr data-sheet-row=\"\(mine[1].id)\" role=\"row\" data-sheet-failed>"))
        #expect(answer.text.contains("role=\"alert\" data-sheet-summary"))
        #expect(answer.text.contains("data-sheet-saved=\"\(mine[0].id):stock\""))
        #expect(try await harness.api.product(id: mine[0].id).stock == 11)
    }

    @Test func forgedOrMissingTokensAndViewersGet403() async throws {
        let setup = try await Self.setUp(signIn: true)
        let (harness, mine) = (setup.harness, setup.mine)
        let sheet = try await harness.browser.get("/products/sheet")
        var form = Self.form(sheet, typing: ["\(mine[0].id).stock": "1"])
        form.removeAll { $0.0 == "csrf_token" }
        #expect(try await harness.browser.post("/products/sheet", form: form).status == 403)
        #expect(try await harness.browser.post("/products/sheet", form: form + [("csrf_token", "forged")]).status == 403)
        let viewer = harness.newBrowser()
        try await harness.accept(try await harness.invite("viewer1", role: "viewer"), password: "viewer-password-1", in: viewer)
        let seen = try await viewer.get("/products/sheet")
        #expect(seen.status == 200 && seen.text.contains("data-sheet-row=\"\(mine[0].id)\""))
        #expect(!seen.text.contains("data-sheet-cell") && seen.text.contains("data-sheet-read-only"))
        let token = try #require(try await viewer.get("/products").inputValue("csrf_token"))
        #expect(try await viewer.post("/products/sheet", form: [("csrf_token", token), ("\(mine[0].id).stock", "1"),
                                                                ("\(mine[0].id).was.stock", "5")]).status == 403)
        #expect(setup.writes.value == 0)
    }

    @Test func v1ExplainsWhyThereIsNoSheet() async throws {
        let harness = try await PanelHarness.start(PanelHarness.Options(dialect: .v1))
        Teardown.add { await harness.stop() }
        let page = try await harness.browser.get("/products/sheet")
        #expect(page.status == 200 && page.text.contains("data-sheet-unavailable"))
        #expect(page.text.contains("password") && !page.text.contains("data-sheet "))
    }
}
