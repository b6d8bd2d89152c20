import Foundation
import Testing
import TestSupport
import OpenMarketCore
import OpenMarketSandbox
@testable import AdminPanel

/// The panel on `--dialect v1`: register asks for the product's password, edit asks for it and
/// can replace the images, delete asks for it; the password shows nowhere.
@Suite(.awaitsTeardown) struct V1PanelTests {
    static let password = "v1-product-pass"

    static func start() async throws -> PanelHarness {
        let harness = try await PanelHarness.start(PanelHarness.Options(dialect: .v1))
        Teardown.add { await harness.stop() }
        return harness
    }

    static func register(_ harness: PanelHarness, name: String = "Desk lamp", password: String = Self.password,
                         price: String = "15000", images: Int = 1) async throws -> RawResponse {
        let token = try await harness.csrfToken(from: "/products/new")
        let files = (0..<images).map {
            TestBrowser.FilePart(filename: "lamp\($0).png", type: "image/png", data: TestImages.png(seed: UInt8($0)))
        }
        return try await harness.browser.postMultipart("/products", fields: [
            ("csrf_token", token), ("name", name), ("description", "A lamp for a desk, bright."), ("price", price),
            ("currency", "KRW"), ("discounted_price", ""), ("stock", "4"), ("password", password),
        ], files: files)
    }

    static func registeredID(_ response: RawResponse) throws -> Int {
        let location = try #require(response.header("Location"))
        return try #require(Int(location.split(separator: "/").last ?? ""))
    }

    static func editFields(_ form: RawResponse, _ changes: [String: String]) -> [(String, String)] {
        let names = ["csrf_token", "name", "price", "discounted_price", "stock", "loaded_name", "loaded_description",
                     "loaded_price", "loaded_currency", "loaded_discounted_price", "loaded_stock", "loaded_thumbnail_id"]
        var fields = names.map { ($0, changes[$0] ?? form.inputValue($0) ?? "") }
        fields.append(("description", changes["description"] ?? "A lamp for a desk, bright."))
        fields.append(("currency", "KRW"))
        fields.append(("password", changes["password"] ?? ""))
        return fields
    }

    @Test func registerAsksForThePasswordAndNeverShowsIt() async throws {
        let harness = try await Self.start()
        let form = try await harness.browser.get("/products/new")
        #expect(form.text.contains(#"<input type="password" id="password" name="password" required maxlength="100" autocomplete="new-password""#))
        #expect(form.text.contains(#"step="1""#))

        let missing = try await Self.register(harness, password: "")
        #expect(missing.status == 422)
        #expect(missing.text.contains(#"id="password-error""#))
        #expect(missing.text.contains("data-staged-images"))   // the chosen image is kept

        let fraction = try await Self.register(harness, price: "12.5")
        #expect(fraction.status == 422 && fraction.text.contains(#"id="price-error""#))
        let control = try await Self.register(harness, name: "Lamp\u{1}")
        #expect(control.status == 422 && control.text.contains(#"id="name-error""#))

        let created = try await Self.register(harness)
        #expect(created.status == 303)
        let id = try Self.registeredID(created)
        let item = try await harness.api.v1Item(id: id)
        #expect(item.title == "Desk lamp" && item.price == 15000 && item.discountedPrice == nil)
        for path in ["/products", "/products/\(id)", "/products/\(id)/edit", "/products/\(id)/delete", "/activity"] {
            let page = try await harness.browser.get(path)
            #expect(!page.text.contains(Self.password), "\(path) shows the password")
        }
        // Wrong password on the sandbox: the API itself refuses.
        await #expect(throws: OpenMarketError.self) { try await harness.api.v1Delete(id: id, password: "other") }
    }

    @Test func everyProductShowsItsEditAndDeleteControls() async throws {
        let harness = try await Self.start()
        let id = try Self.registeredID(try await Self.register(harness))
        // A product registered by another client, with another password, is manageable too.
        let other = try await harness.api.v1Register(V1NewItem(title: "Foreign chair", descriptions: "Made elsewhere.",
            price: 100, currency: .USD, stock: 1, password: "elsewhere",
            images: [ImageUpload(filename: "c.png", data: TestImages.png(seed: 9))]))
        for product in [id, other.id] {
            let detail = try await harness.browser.get("/products/\(product)")
            #expect(detail.text.contains("href=\"/products/\(product)/edit\""))
            #expect(detail.text.contains("data-delete-dialog"))
            #expect(detail.text.contains("Product password"))
            #expect(!detail.text.contains("Vendor password"))
        }
    }

    @Test func editNeedsThePasswordAndCanReplaceTheImages() async throws {
        let harness = try await Self.start()
        let id = try Self.registeredID(try await Self.register(harness, images: 2))
        let form = try await harness.browser.get("/products/\(id)/edit")
        #expect(form.status == 200)
        #expect(form.text.contains(#"enctype="multipart/form-data""#))
        #expect(form.text.contains(#"autocomplete="current-password""#))
        #expect(!form.text.contains(#"name="thumbnail_id""#))
        #expect(form.text.contains(#"name="images" multiple"#) && !form.text.contains(#"multiple accept="image/jpeg,image/png,image/gif,image/webp" required"#))

        // No password: 422 by the field, nothing sent.
        let noPassword = try await harness.browser.postMultipart("/products/\(id)/edit",
            fields: Self.editFields(form, ["stock": "9"]), files: [])
        #expect(noPassword.status == 422 && noPassword.text.contains(#"id="password-error""#))

        // Wrong password with a new image: 422, the image stays staged, nothing changed.
        let wrong = try await harness.browser.postMultipart("/products/\(id)/edit",
            fields: Self.editFields(form, ["stock": "9", "password": "wrong-pass"]),
            files: [TestBrowser.FilePart(filename: "new.png", type: "image/png", data: TestImages.png(seed: 7))])
        #expect(wrong.status == 422)
        #expect(wrong.text.contains(#"id="password-error""#) && wrong.text.contains("That password is not right"))
        #expect(wrong.text.contains("data-staged-images"))
        #expect(!wrong.text.contains("wrong-pass"))
        #expect(try await harness.api.v1Item(id: id).stock == 4)

        // The right password with the staged image: saved, images replaced by the one.
        let staged = try #require(wrong.inputValue("staged_token"))
        var fields = Self.editFields(form, ["stock": "9", "password": Self.password])
        fields.append(("staged_token", staged))
        let saved = try await harness.browser.postMultipart("/products/\(id)/edit", fields: fields, files: [])
        #expect(saved.status == 303, "\(saved.text.prefix(3000))")
        let item = try await harness.api.v1Item(id: id)
        #expect(item.stock == 9 && item.images.count == 1)
        // The activity row names the changes, never the password.
        let activity = try await harness.browser.get("/activity")
        #expect(!activity.text.contains(Self.password))
    }

    @Test func deleteAsksForTheProductPasswordWithTheSameLimits() async throws {
        let harness = try await Self.start()
        let id = try Self.registeredID(try await Self.register(harness))
        let prompt = try await harness.browser.get("/products/\(id)/delete")
        #expect(prompt.status == 200 && prompt.text.contains("Product password"))
        let token = try await harness.csrfToken(from: "/products/\(id)")
        var statuses: [Int] = []
        var last: RawResponse?
        for attempt in 0..<5 {
            let response = try await harness.browser.post("/products/\(id)/delete",
                                                          form: [("csrf_token", token), ("password", "nope-\(attempt)")])
            statuses.append(response.status)
            last = response
        }
        // The fifth password was checked too: wrong (422), and deleting now waits (Retry-After).
        #expect(statuses == [422, 422, 422, 422, 422])
        #expect(last?.header("Retry-After") != nil)
        #expect(try await harness.browser.post("/products/\(id)/delete",
                                               form: [("csrf_token", token), ("password", "nope-5")]).status == 429)
        harness.clock.advance(601)
        let deleted = try await harness.browser.post("/products/\(id)/delete",
                                                     form: [("csrf_token", token), ("password", Self.password)])
        #expect(deleted.status == 303)
        await #expect(throws: OpenMarketError.notFound(message: "Not Found")) { try await harness.api.v1Item(id: id) }
    }
}
