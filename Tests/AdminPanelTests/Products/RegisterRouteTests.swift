import Foundation
import Testing
import TestSupport
import OpenMarketCore
@testable import AdminPanel

@Suite(.awaitsTeardown) struct RegisterRouteTests {
    static func fields(_ token: String, name: String = "Ceramic mug", extra: [(String, String)] = []) -> [(String, String)] {
        [("csrf_token", token), ("name", name), ("description", "A handmade ceramic mug, 350 ml."),
         ("currency", "KRW"), ("price", "12000"), ("discounted_price", "1000"), ("stock", "5")] + extra
    }

    @Test func formShowsEveryFieldWithLabelsAndConstraints() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let form = try await harness.browser.get("/products/new")
        #expect(form.status == 200)
        #expect(form.headers("Set-Cookie").contains { $0.hasPrefix("om_form=") && $0.contains("HttpOnly") && $0.contains("SameSite=Lax") })
        for field in ["name", "description", "currency", "price", "discounted_price", "stock", "images"] {
            #expect(form.text.contains("<label for=\"\(field)\""), "label for \(field)")
        }
        #expect(form.text.contains("minlength=\"3\" maxlength=\"100\""))
        #expect(form.text.contains("minlength=\"10\" maxlength=\"1000\""))
        #expect(form.text.contains("multiple accept=\"image/jpeg,image/png,image/gif,image/webp\""))
        #expect(form.text.contains("enctype=\"multipart/form-data\""))
        #expect(form.text.contains("<progress"))
        #expect(form.text.contains("300 KB"))
        #expect(form.inputValue("csrf_token")?.count == 64)
    }

    /// A 33-byte PNG header declaring 30000×30000 pixels: refused by its declared size, naming the
    /// file, and never staged or sent to the API.
    @Test func aPixelBombIsRefusedWithoutJavaScript() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let token = try await harness.csrfToken(from: "/products/new")
        var bomb: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        bomb += [0, 0, 0x75, 0x30, 0, 0, 0x75, 0x30, 8, 2, 0, 0, 0, 0, 0, 0, 0]
        let response = try await harness.browser.postMultipart("/products", fields: Self.fields(token), files: [
            .init(filename: "bomb.png", type: "image/png", data: Data(bomb)),
        ])
        #expect(response.status == 422)
        #expect(response.text.contains("“bomb.png” is 30,000×30,000 pixels; an image can be at most 10,000 pixels a side and 40 megapixels."))
        #expect(!response.text.contains("data-staged-images"))
        #expect(try await harness.api.listProducts(page: 1, itemsPerPage: 20, search: nil).totalCount == 0)
    }

    @Test func registerRedirectsToTheProductWithAOneTimeFlash() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let token = try await harness.csrfToken(from: "/products/new")
        let response = try await harness.browser.postMultipart("/products", fields: Self.fields(token), files: [
            .init(filename: "one.png", type: "image/png", data: TestImages.png(seed: 1)),
            .init(filename: "two.png", type: "image/png", data: TestImages.png(seed: 2)),
        ])
        #expect(response.status == 303)
        let location = try #require(response.header("Location"))
        #expect(location.hasPrefix("/products/"))
        let id = try #require(Int(location.dropFirst("/products/".count)))
        let product = try await harness.api.product(id: id)
        #expect(product.name == "Ceramic mug")
        #expect(product.images.count == 2)
        #expect(product.discountedPrice == 1000)

        let page = try await harness.browser.get(location)
        #expect(page.text.contains("role=\"status\">Registered “Ceramic mug”.</p>"))
        #expect(page.text.contains("data-gallery"))
        #expect(page.count(of: "class=\"gallery__slide\"") == 2)
        let again = try await harness.browser.get(location)
        #expect(!again.text.contains("role=\"status\""))
    }

    @Test func validationErrorKeepsValuesAndStagedImagesThenSucceeds() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let token = try await harness.csrfToken(from: "/products/new")
        let failed = try await harness.browser.postMultipart("/products", fields: Self.fields(token, name: "ab") + [("description", "")],
                                                            files: [.init(filename: "keep.png", data: TestImages.png(seed: 9))])
        #expect(failed.status == 422)
        #expect(failed.inputValue("name") == "ab")
        #expect(failed.inputValue("price") == "12000")
        #expect(failed.text.contains("class=\"error-summary\" role=\"alert\""))
        #expect(failed.text.contains("aria-describedby=\"name-hint name-error\""))
        #expect(failed.text.contains("<p class=\"field-error\" id=\"name-error\">"))
        #expect(failed.text.contains("data-staged-images"))
        #expect(failed.text.contains("keep.png"))
        let stagedToken = try #require(failed.inputValue("staged_token"))
        // The preview is served to this session only.
        let previewPath = "/uploads/\(stagedToken)/1"
        let preview = try await harness.browser.get(previewPath)
        #expect(preview.status == 200)
        #expect(preview.header("Content-Type") == "image/png")
        #expect(preview.body == TestImages.png(seed: 9))
        let stranger = harness.newBrowser()
        #expect(try await stranger.get(previewPath).status == 404)

        let fixed = try await harness.browser.postMultipart("/products", fields: Self.fields(token, name: "Kept image mug")
                                                            + [("staged_token", stagedToken)], files: [])
        #expect(fixed.status == 303)
        let id = try #require(Int(fixed.header("Location")?.dropFirst("/products/".count) ?? ""))
        let product = try await harness.api.product(id: id)
        #expect(product.images.count == 1)
        // Staged files are removed after success.
        #expect(try await harness.browser.get(previewPath).status == 404)
    }

    /// Kept images are ordered with position menus, not submit buttons: the form's first submit
    /// button is Save, the one a browser presses for Enter in a text field (with or without JS).
    @Test func keptImagesTakeTheChosenPositionsAndSaveStaysTheFirstSubmitButton() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let token = try await harness.csrfToken(from: "/products/new")
        let failed = try await harness.browser.postMultipart("/products", fields: Self.fields(token, name: "ab"), files: [
            .init(filename: "one.png", data: TestImages.png(seed: 1)), .init(filename: "two.png", data: TestImages.png(seed: 2)),
            .init(filename: "three.png", data: TestImages.png(seed: 3)),
        ])
        #expect(failed.status == 422)
        let stagedToken = try #require(failed.inputValue("staged_token"))
        let firstSubmit = try #require(failed.text.range(of: "type=\"submit\""))
        #expect(failed.text[firstSubmit.lowerBound...].hasPrefix("type=\"submit\" class=\"button button--primary\">Register"))
        #expect(failed.text.contains("<select name=\"staged_position_3\" aria-label=\"Position of three.png\">"))
        #expect(failed.text.contains("<option value=\"3\" selected>3</option>"))

        // Without JS: "three.png" to position 1, sent with the name still too short.
        let order = [("staged_token", stagedToken), ("staged_order", "1"), ("staged_order", "2"), ("staged_order", "3"),
                     ("staged_position_1", "1"), ("staged_position_2", "2"), ("staged_position_3", "1")]
        let again = try await harness.browser.postMultipart("/products", fields: Self.fields(token, name: "ab") + order, files: [])
        #expect(again.status == 422)
        let shown = again.text.components(separatedBy: "data-staged-image=\"").dropFirst().map { $0.prefix(while: { $0 != "\"" }) }
        #expect(shown == ["3", "1", "2"])

        let saved = try await harness.browser.postMultipart("/products", fields: Self.fields(token, name: "Three mugs") + order, files: [])
        #expect(saved.status == 303)
        let id = try #require(Int(saved.header("Location")?.dropFirst("/products/".count) ?? ""))
        let product = try await harness.api.product(id: id)
        #expect(product.images.count == 3)
    }

    @Test func badFilesAreNamedAndNotStaged() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let token = try await harness.csrfToken(from: "/products/new")
        let svg = Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)
        let response = try await harness.browser.postMultipart("/products", fields: Self.fields(token), files: [
            .init(filename: "evil.png", type: "image/png", data: svg),
            // JPEG and PNG over the limit are shrunk by the panel (ImportRouteTests); other formats are refused by name.
            .init(filename: "big.gif", type: "image/gif", data: Data("GIF89a".utf8) + Data([1, 0, 1, 0]) + Data(count: 400 * 1024 - 10)),
        ])
        #expect(response.status == 422)
        #expect(response.text.contains("“evil.png” is not a JPEG, PNG, GIF or WebP image."))
        #expect(response.text.contains("“big.gif” is 400 KB"))
        #expect(!response.text.contains("data-staged-images"))
    }

    @Test func removedStagedImagesAreDroppedAndExpiredTokensExplained() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let token = try await harness.csrfToken(from: "/products/new")
        let first = try await harness.browser.postMultipart("/products", fields: Self.fields(token, name: "x"),
                                                           files: [.init(filename: "a.png", data: TestImages.png(seed: 1)),
                                                                   .init(filename: "b.png", data: TestImages.png(seed: 2))])
        let staged = try #require(first.inputValue("staged_token"))
        let second = try await harness.browser.postMultipart("/products", fields: Self.fields(token, name: "y")
                                                            + [("staged_token", staged), ("staged_remove", "1")], files: [])
        #expect(second.status == 422)
        #expect(!second.text.contains("a.png"))
        #expect(second.text.contains("b.png"))

        harness.clock.advance(3601)
        let expired = try await harness.browser.postMultipart("/products", fields: Self.fields(token, name: "Late mug")
                                                             + [("staged_token", staged)], files: [])
        #expect(expired.status == 422)
        #expect(expired.text.contains("have expired. Please choose them again."))
        #expect(expired.inputValue("name") == "Late mug")
    }

    @Test func productNamesAreEscapedEverywhere() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let name = "<script>alert(\"x\")</script>&'"
        let product = try await harness.makeProduct(name: name)
        for path in ["/products", "/products/\(product.id)", "/products/\(product.id)/edit", "/products/\(product.id)/delete",
                     "/products?q=" + TestBrowser.formEncode("<script>")] {
            let page = try await harness.browser.get(path)
            #expect(page.status == 200, "\(path)")
            #expect(!page.text.contains("<script>alert"), "\(path)")
            #expect(page.text.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;"), "\(path)")
        }
    }

    @Test func vendorIsLearnedFromTheFirstRegister() async throws {
        let harness = try await PanelHarness.start(.init(vendorID: .unknown))
        Teardown.add { await harness.stop() }
        // Unknown vendor: controls show on every product.
        let foreign = try await harness.makeProduct(name: "Made elsewhere")
        #expect(try await harness.browser.get("/products/\(foreign.id)").text.contains("data-delete-dialog"))
        let token = try await harness.csrfToken(from: "/products/new")
        let created = try await harness.browser.postMultipart("/products", fields: Self.fields(token),
                                                             files: [.init(filename: "a.png", data: TestImages.png())])
        #expect(created.status == 303)
        #expect(await harness.panel.app.upstream.vendor.id == harness.sandbox?.demoVendor.id)
    }
}
