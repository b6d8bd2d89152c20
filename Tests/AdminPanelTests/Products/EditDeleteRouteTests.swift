import Foundation
import Testing
import TestSupport
import OpenMarketCore
import OpenMarketSandbox
@testable import AdminPanel

@Suite(.awaitsTeardown) struct EditRouteTests {
    static func editFields(from form: RawResponse, overriding changes: [String: String]) -> [(String, String)] {
        let names = ["csrf_token", "name", "price", "discounted_price", "stock",
                     "loaded_name", "loaded_description", "loaded_price", "loaded_currency", "loaded_discounted_price",
                     "loaded_stock", "loaded_thumbnail_id"]
        var fields = names.map { ($0, changes[$0] ?? form.inputValue($0) ?? "") }
        fields.append(("description", changes["description"] ?? "A product made by a test."))
        fields.append(("currency", changes["currency"] ?? "KRW"))
        if let thumbnail = changes["thumbnail_id"] { fields.append(("thumbnail_id", thumbnail)) }
        return fields
    }

    @Test func editIsPrefilledAndChangesNameAndThumbnail() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct(name: "Old name", images: 2)
        let form = try await harness.browser.get("/products/\(product.id)/edit")
        #expect(form.status == 200)
        #expect(form.inputValue("name") == "Old name")
        #expect(form.inputValue("price") == "12000")
        #expect(form.count(of: "type=\"radio\" name=\"thumbnail_id\"") == 2)
        #expect(form.text.contains("name=\"thumbnail_id\" value=\"\(product.images[0].id)\" checked"))
        let second = product.images[1].id
        let saved = try await harness.browser.post("/products/\(product.id)/edit",
                                                   form: Self.editFields(from: form, overriding: ["name": "New name", "thumbnail_id": "\(second)"]))
        #expect(saved.status == 303)
        #expect(saved.header("Location") == "/products/\(product.id)")
        let updated = try await harness.api.product(id: product.id)
        #expect(updated.name == "New name")
        #expect(updated.thumbnail == updated.images[1].thumbnailURL)
        let page = try await harness.browser.get("/products/\(product.id)")
        #expect(page.text.contains("role=\"status\">Saved changes to “New name”.</p>"))
    }

    @Test func invalidEditIs422WithValuesKept() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct()
        let form = try await harness.browser.get("/products/\(product.id)/edit")
        let response = try await harness.browser.post("/products/\(product.id)/edit",
                                                      form: Self.editFields(from: form, overriding: ["price": "100", "discounted_price": "500", "stock": "lots"]))
        #expect(response.status == 422)
        #expect(response.inputValue("stock") == "lots")
        #expect(response.inputValue("discounted_price") == "500")
        #expect(response.text.contains("id=\"stock-error\""))
        #expect(response.text.contains("id=\"discounted_price-error\""))
        #expect(try await harness.api.product(id: product.id).price == 12000)
    }

    @Test func staleEditShowsWhatChangedAndSavesOnConfirm() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct(name: "Shared product")
        let form = try await harness.browser.get("/products/\(product.id)/edit")
        _ = try await harness.api.update(id: product.id, changes: ProductChanges(price: 15000, stock: 9))
        let conflict = try await harness.browser.post("/products/\(product.id)/edit",
                                                      form: Self.editFields(from: form, overriding: ["name": "My new name"]))
        #expect(conflict.status == 409)
        #expect(conflict.text.contains("This product changed since you opened the form"))
        #expect(conflict.text.contains("<th scope=\"row\">Price</th><td>₩12,000</td><td>₩15,000</td><td>(not changed by you"))
        #expect(conflict.text.contains("<th scope=\"row\">Stock</th><td>3</td><td>9</td><td>(not changed by you"))
        #expect(conflict.text.contains("role=\"alert\""))
        #expect(conflict.inputValue("name") == "My new name")
        // Fields the seller did not touch now show the store's values, so saving cannot revert them.
        #expect(conflict.inputValue("price") == "15000")
        #expect(conflict.inputValue("loaded_price") == "15000")
        #expect(try await harness.api.product(id: product.id).name == "Shared product")

        let confirmed = try await harness.browser.post("/products/\(product.id)/edit",
                                                       form: Self.editFields(from: conflict, overriding: [:]))
        #expect(confirmed.status == 303)
        let now = try await harness.api.product(id: product.id)
        #expect(now.name == "My new name")
        #expect(now.price == 15000)   // someone else's change to a field the seller did not touch stays
        #expect(now.stock == 9)
    }

    /// Issue 13's sequence: the seller changes only the price; meanwhile a colleague renames the
    /// product through the API; the 409 is confirmed. The product ends with their name and your price.
    @Test func confirmingAConflictKeepsTheirNameAndYourPrice() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct(name: "Original name")
        let form = try await harness.browser.get("/products/\(product.id)/edit")
        _ = try await harness.api.update(id: product.id, changes: ProductChanges(name: "Colleague's name"))
        let conflict = try await harness.browser.post("/products/\(product.id)/edit",
                                                      form: Self.editFields(from: form, overriding: ["price": "9900"]))
        #expect(conflict.status == 409)
        #expect(conflict.text.contains("<th scope=\"row\">Product name</th><td>Original name</td><td>Colleague&#39;s name</td><td>(not changed by you"))
        #expect(conflict.inputValue("name") == "Colleague's name")
        #expect(conflict.inputValue("price") == "9900")
        let confirmed = try await harness.browser.post("/products/\(product.id)/edit",
                                                       form: Self.editFields(from: conflict, overriding: [:]))
        #expect(confirmed.status == 303)
        let now = try await harness.api.product(id: product.id)
        #expect(now.name == "Colleague's name")
        #expect(now.price == 9900)
    }

    @Test func foreignProductsHaveNoControlsAndCannotBeEdited() async throws {
        let harness = try await PanelHarness.start(.init(vendorID: .other(999)))
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct()
        let page = try await harness.browser.get("/products/\(product.id)")
        #expect(page.status == 200)
        #expect(!page.text.contains("data-delete-dialog"))
        #expect(!page.text.contains("/edit\""))
        let edit = try await harness.browser.get("/products/\(product.id)/edit")
        #expect(edit.status == 403)
        #expect(edit.text.contains("role=\"alert\""))
    }

    @Test func unknownProductsAre404Pages() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        for path in ["/products/424242", "/products/424242/edit", "/products/424242/delete", "/products/abc"] {
            let page = try await harness.browser.get(path)
            #expect(page.status == 404, "\(path)")
            #expect(page.text.contains("Error 404"), "\(path)")
        }
    }
}

@Suite(.awaitsTeardown) struct DeleteRouteTests {
    @Test func detailOffersTheDialogAndTheNoScriptPage() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct()
        let page = try await harness.browser.get("/products/\(product.id)")
        #expect(page.text.contains("<dialog data-delete-dialog"))
        #expect(page.text.contains("type=\"password\" id=\"dialog-password\" name=\"password\""))
        #expect(page.text.contains("href=\"/products/\(product.id)/delete\" data-delete-open"))
        let prompt = try await harness.browser.get("/products/\(product.id)/delete")
        #expect(prompt.status == 200)
        #expect(prompt.text.contains("name=\"password\""))
    }

    @Test func wrongPasswordAsksAgainThenTheRightOneDeletes() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct(name: "To delete")
        let token = try await harness.csrfToken(from: "/products/\(product.id)")
        let wrong = try await harness.browser.post("/products/\(product.id)/delete",
                                                   form: [("csrf_token", token), ("password", "not-the-password-42")])
        #expect(wrong.status == 422)
        #expect(wrong.text.contains("role=\"alert\""))
        #expect(wrong.text.contains("That password is not right"))
        #expect(!wrong.text.contains("not-the-password-42"))
        #expect(!wrong.text.contains(harness.demoSecret))
        #expect(try await harness.api.product(id: product.id).name == "To delete")

        let right = try await harness.browser.post("/products/\(product.id)/delete",
                                                   form: [("csrf_token", token), ("password", harness.demoSecret)])
        #expect(right.status == 303)
        #expect(right.header("Location") == "/products")
        let list = try await harness.browser.get("/products")
        #expect(list.text.contains("role=\"status\">Deleted “To delete”.</p>"))
        #expect(!list.text.contains(harness.demoSecret))
        await #expect(throws: OpenMarketError.self) { _ = try await harness.api.product(id: product.id) }
    }

    @Test func fiveWrongPasswordsPauseDeletingForThatSession() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct()
        let token = try await harness.csrfToken(from: "/products/\(product.id)/delete")
        var statuses: [Int] = []
        for _ in 0..<5 {
            statuses.append(try await harness.browser.post("/products/\(product.id)/delete",
                                                           form: [("csrf_token", token), ("password", "wrong")]).status)
        }
        // The fifth password was checked too: it is told it was wrong, and that deleting now waits.
        #expect(statuses == [422, 422, 422, 422, 422])
        let locked = try await harness.browser.post("/products/\(product.id)/delete",
                                                    form: [("csrf_token", token), ("password", harness.demoSecret)])
        #expect(locked.status == 429)
        #expect(locked.text.contains("Try again in 10 minutes"))
        #expect(try await harness.browser.get("/products/\(product.id)/delete").status == 429)
        #expect(try await harness.api.product(id: product.id).id == product.id)
        // After the window, the right password works.
        harness.clock.advance(601)
        let later = try await harness.browser.post("/products/\(product.id)/delete",
                                                   form: [("csrf_token", token), ("password", harness.demoSecret)])
        #expect(later.status == 303)
    }

    @Test func emptyPasswordIsNotCounted() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct()
        let token = try await harness.csrfToken(from: "/products/\(product.id)/delete")
        for _ in 0..<6 {
            let response = try await harness.browser.post("/products/\(product.id)/delete", form: [("csrf_token", token), ("password", "")])
            #expect(response.status == 422)
        }
    }
}

@Suite(.awaitsTeardown) struct DialectRouteTests {
    @Test func v2bListsVendorNamesAndDeletesThroughTheArchivedPath() async throws {
        let harness = try await PanelHarness.start(.init(dialect: .v2b))
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct(name: "v2b product")
        let list = try await harness.browser.get("/products")
        #expect(list.text.contains("<span class=\"product__vendor\">Your store</span>"))
        #expect(list.text.contains("A product made by a test."))
        let token = try await harness.csrfToken(from: "/products/\(product.id)")
        let deleted = try await harness.browser.post("/products/\(product.id)/delete",
                                                     form: [("csrf_token", token), ("password", harness.demoSecret)])
        #expect(deleted.status == 303)
        await #expect(throws: OpenMarketError.self) { _ = try await harness.api.product(id: product.id) }
    }
}

@Suite(.awaitsTeardown) struct OwnershipRouteTests {
    static let other = VendorSeed(name: "someone", identifier: "5b1f6c1e-0000-4000-8000-00000000abcd", secret: "other-secret-123")

    func foreignProduct(_ harness: PanelHarness) async throws -> ProductDetail {
        let api = OpenMarketClient(configuration: ClientConfiguration(baseURL: harness.client.baseURL, identifier: Self.other.identifier,
                                                                      secret: Self.other.secret, timeout: 60), transport: harness.transport)
        return try await api.create(NewProduct(name: "Not ours", description: "Belongs to another vendor.", price: 5000,
                                               currency: .KRW, images: [ImageUpload(filename: "a.png", data: TestImages.png())]))
    }

    @Test func whileTheVendorIsUnknownARefusalIsExplained() async throws {
        let harness = try await PanelHarness.start(.init(vendorID: .unknown, otherVendor: Self.other))
        Teardown.add { await harness.stop() }
        let product = try await foreignProduct(harness)
        let detail = try await harness.browser.get("/products/\(product.id)")
        #expect(detail.text.contains("data-delete-dialog"))
        let form = try await harness.browser.get("/products/\(product.id)/edit")
        #expect(form.status == 200)
        let refused = try await harness.browser.post("/products/\(product.id)/edit",
                                                     form: EditRouteTests.editFields(from: form, overriding: ["name": "Taken over"]))
        #expect(refused.status == 403)
        #expect(refused.text.contains("role=\"alert\""))
        #expect(refused.text.contains("belongs to another vendor"))
        #expect(refused.inputValue("name") == "Taken over")
        let token = try #require(form.inputValue("csrf_token"))
        let delete = try await harness.browser.post("/products/\(product.id)/delete",
                                                    form: [("csrf_token", token), ("password", harness.demoSecret)])
        #expect(delete.status == 403)
        #expect(delete.text.contains("another vendor"))
        #expect(try await harness.api.product(id: product.id).name == "Not ours")
    }

    @Test func savingWithoutChangesSaysSo() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct()
        let form = try await harness.browser.get("/products/\(product.id)/edit")
        let response = try await harness.browser.post("/products/\(product.id)/edit",
                                                      form: EditRouteTests.editFields(from: form, overriding: [:]))
        #expect(response.status == 303)
        let page = try await harness.browser.get("/products/\(product.id)")
        #expect(page.text.contains("role=\"status\">Nothing to save: no field was changed.</p>"))
    }
}
