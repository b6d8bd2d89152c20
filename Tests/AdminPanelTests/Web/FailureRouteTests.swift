import Foundation
import HTTPServer
import Testing
import TestSupport
import OpenMarketCore
@testable import AdminPanel

@Suite(.awaitsTeardown) struct FailureRouteTests {
    @Test func apiDownGivesA502PageWithRetryAndTheFormKeepsInput() async throws {
        let harness = try await PanelHarness.start(.init(live: true, api: try StubAPI.closedPort(), timeout: 5))
        Teardown.add { await harness.stop() }
        let list = try await harness.browser.get("/products?page=2&q=cup")
        #expect(list.status == 502)
        #expect(list.text.contains("The store cannot be reached"))
        #expect(list.text.contains("href=\"/products?page=2&amp;view=list&amp;q=cup\">Try again</a>"))
        #expect(list.header("Cache-Control") == "no-store")

        let token = try await harness.csrfToken(from: "/products/new")
        let submitted = try await harness.browser.postMultipart("/products", fields: RegisterRouteTests.fields(token, name: "Kept while down"),
                                                               files: [.init(filename: "kept.png", data: TestImages.png())])
        #expect(submitted.status == 502)
        #expect(submitted.inputValue("name") == "Kept while down")
        #expect(submitted.inputValue("price") == "12000")
        #expect(submitted.text.contains("data-staged-images"))
        #expect(submitted.text.contains("role=\"alert\""))

        // The panel itself keeps serving.
        let health = try await harness.browser.get("/healthz")
        #expect(health.status == 200)
        #expect(health.text.contains("\"api_reachable\":false"))
    }

    @Test func api500AndGarbageAre502() async throws {
        let failing = try StubAPI { _ in .text("{\"code\":500,\"message\":\"boom\"}", status: 500) }
        let garbage = try StubAPI { _ in .json(Data("{\"page_no\": \"nonsense".utf8)) }
        Teardown.add { await failing.stop(); await garbage.stop() }
        for stub in [failing, garbage] {
            let harness = try await PanelHarness.start(.init(live: true, api: stub.url))
            Teardown.add { await harness.stop() }
            let list = try await harness.browser.get("/products")
            #expect(list.status == 502)
            #expect(list.text.contains("Try again"))
            let detail = try await harness.browser.get("/products/3")
            #expect(detail.status == 502)
        }
    }

    @Test func slowAPIIs504() async throws {
        let slow = try StubAPI { _ in
            try? await Task.sleep(for: .seconds(20))
            return .text("late")
        }
        Teardown.add { await slow.stop() }
        let harness = try await PanelHarness.start(.init(live: true, api: slow.url, timeout: 0.5))
        Teardown.add { await harness.stop() }
        let list = try await harness.browser.get("/products")
        #expect(list.status == 504)
        #expect(list.text.contains("did not answer in time"))
    }
}

@Suite(.awaitsTeardown) struct SecurityRouteTests {
    @Test func postsWithoutTheRightCSRFTokenAre403() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct()
        _ = try await harness.csrfToken(from: "/products/new")
        let missing = try await harness.browser.post("/products/\(product.id)/delete", form: [("password", harness.demoSecret)])
        #expect(missing.status == 403)
        let wrong = try await harness.browser.post("/products/\(product.id)/delete",
                                                   form: [("csrf_token", String(repeating: "0", count: 64)), ("password", harness.demoSecret)])
        #expect(wrong.status == 403)
        let multipart = try await harness.browser.postMultipart("/products", fields: RegisterRouteTests.fields("forged"),
                                                               files: [.init(filename: "a.png", data: TestImages.png())])
        #expect(multipart.status == 403)
        // Another browser's valid token does not work with this browser's session.
        let other = harness.newBrowser()
        let page = try await other.get("/products/new")
        let foreignToken = try #require(page.inputValue("csrf_token"))
        let crossed = try await harness.browser.post("/products/\(product.id)/delete",
                                                     form: [("csrf_token", foreignToken), ("password", harness.demoSecret)])
        #expect(crossed.status == 403)
        #expect(try await harness.api.product(id: product.id).id == product.id)
    }

    @Test func foreignOriginIs403EvenWithAValidToken() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct()
        let token = try await harness.csrfToken(from: "/products/\(product.id)")
        let response = try await harness.browser.post("/products/\(product.id)/delete",
                                                      form: [("csrf_token", token), ("password", harness.demoSecret)],
                                                      headers: [("Origin", "http://evil.example")])
        #expect(response.status == 403)
        #expect(response.text.contains("sent from another site"))
        let nullOrigin = try await harness.browser.post("/products/\(product.id)/delete",
                                                        form: [("csrf_token", token), ("password", harness.demoSecret)],
                                                        headers: [("Origin", "null")])
        #expect(nullOrigin.status == 403)
        #expect(try await harness.api.product(id: product.id).id == product.id)
    }

    @Test func oversizedUploadGetsThe413Page() async throws {
        let harness = try await PanelHarness.start(.init(live: true, uploadLimit: 1 << 20))
        Teardown.add { await harness.stop() }
        let token = try await harness.csrfToken(from: "/products/new")
        let response = try await harness.browser.postMultipart("/products", fields: RegisterRouteTests.fields(token),
                                                              files: [.init(filename: "huge.png", data: TestImages.largePNG(size: 2 << 20))])
        #expect(response.status == 413)
        #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
        #expect(response.text.contains("Upload too large"))
        #expect(response.header("Connection") == "close")
        #expect(response.header("Content-Security-Policy") != nil)   // a page like any other
    }

    @Test func cookiesAreHttpOnlySameSiteAndSecretsNeverReachPages() async throws {
        let harness = try await PanelHarness.start(.init(seed: 3))
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct()
        var pages: [RawResponse] = []
        for path in ["/products", "/products?view=grid", "/products/new", "/products/\(product.id)",
                     "/products/\(product.id)/edit", "/products/\(product.id)/delete", "/healthz", "/nope"] {
            pages.append(try await harness.browser.get(path))
        }
        for page in pages {
            #expect(!page.text.contains(harness.demoSecret))
            #expect(!page.text.contains(harness.demoIdentifier))
            for cookie in page.headers("Set-Cookie") {
                // The view choice is Strict; the form key and flash are Lax (an invitation link
                // opened from a chat must still get a form that submits).
                #expect(cookie.contains("HttpOnly") && (cookie.contains("SameSite=Strict") || cookie.contains("SameSite=Lax")))
            }
            #expect(page.header("X-Content-Type-Options") == "nosniff")
            #expect(page.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
        }
    }
}

@Suite(.awaitsTeardown) struct MediaRouteTests {
    @Test func mediaComesFromTheAPIWithETagAndCache() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct()
        let path = try #require(MediaLinks(apiBaseURL: harness.client.baseURL).panelPath(for: product.images[0].url))
        let image = try await harness.browser.get(path)
        #expect(image.status == 200)
        #expect(image.header("Content-Type") == "image/png")
        #expect(image.body == TestImages.png(seed: 0))
        let etag = try #require(image.header("ETag"))
        #expect(image.header("Cache-Control")?.contains("max-age") == true)
        let again = try await harness.browser.get(path, headers: [("If-None-Match", etag)])
        #expect(again.status == 304)
        #expect(await harness.panel.app.mediaCache.count == 1)
    }

    /// A deleted product's images leave the cache (no page links them again); others stay.
    @Test func deletingAProductDropsItsImagesFromTheCache() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let kept = try await harness.makeProduct(name: "Kept")
        let product = try await harness.makeProduct(name: "Deleted", images: 2)
        let links = MediaLinks(apiBaseURL: harness.client.baseURL)
        for url in [kept.images[0].url] + product.images.flatMap({ [$0.url, $0.thumbnailURL] }) {
            #expect(try await harness.browser.get(try #require(links.panelPath(for: url))).status == 200)
        }
        #expect(await harness.panel.app.mediaCache.count == 5)
        let token = try await harness.csrfToken(from: "/products/\(product.id)")
        let deleted = try await harness.browser.post("/products/\(product.id)/delete",
                                                     form: [("csrf_token", token), ("password", harness.demoSecret)])
        #expect(deleted.status == 303)
        #expect(await harness.panel.app.mediaCache.count == 1)
        let image = TestImages.png(seed: 0)
        #expect(await harness.panel.app.mediaCache.totalBytes == MediaCache.cost(
            kept.images[0].url, CachedMedia(data: image, contentType: "image/png", etag: EntityTag.of(image))))
    }

    @Test func imagesFromAConfiguredMediaOriginAreProxied() async throws {
        let images = try StubAPI { request in
            var response = HTTPResponse(status: request.path == "/bucket/a.png" ? 200 : 404,
                                        body: .data(request.path == "/bucket/a.png" ? TestImages.png(seed: 7) : Data()))
            response.headers["Content-Type"] = "image/png"
            return response
        }
        Teardown.add { await images.stop() }
        let harness = try await PanelHarness.start(.init(live: true, mediaOrigins: [images.url]))
        Teardown.add { await harness.stop() }
        let image = try await harness.browser.get("/media/_o1/bucket/a.png")
        #expect(image.status == 200)
        #expect(image.body == TestImages.png(seed: 7))
        #expect(try await harness.browser.get("/media/_o1/bucket/missing.png").status == 404)
        #expect(try await harness.browser.get("/media/_o2/bucket/a.png").status == 404)
    }

    @Test func mediaIsNotAnOpenProxy() async throws {
        let harness = try await PanelHarness.start(.init(seed: 1))
        Teardown.add { await harness.stop() }
        // Only API paths, only images: JSON from the API is not passed on, hosts cannot be named.
        let json = try await harness.browser.get("/media/api/products")
        #expect(json.status == 502 || json.status == 404)
        #expect(!json.text.contains("page_no"))
        for path in ["/media/http://evil.example/x.png", "/media/%2F%2Fevil.example/x.png", "/media/../api/products", "/media/"] {
            let response = try await harness.browser.get(path)
            #expect(response.status != 200, "\(path)")
        }
    }
}
