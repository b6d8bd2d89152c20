import Foundation
import OpenMarketCore
import Testing
import TestSupport
@testable import OpenMarketSandbox

/// Register, edit and delete over real HTTP, raw and through the client core, in both dialects.
@Suite(.awaitsTeardown) struct SandboxWriteTests {
    @Test(arguments: [Dialect.v2a, .v2b])
    func clientCoreRoundTrip(dialect: Dialect) async throws {
        try await withSandbox(dialect: dialect) { harness in
            let client = harness.client()
            let png = SampleProducts.image(index: 4, imageIndex: 0)
            let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 9, count: 100)
            let created = try await client.create(NewProduct(
                name: "전신 패딩 판매합니다", description: "전신 패딩 팝니다. 개당 가격 5만. 네고 사절", price: 60_000_000,
                currency: .KRW, discountedPrice: 500, stock: 2,
                images: [ImageUpload(filename: "a.png", data: Data(png)), ImageUpload(filename: "b.jpg", data: Data(jpeg))]))
            #expect(created.name == "전신 패딩 판매합니다" && created.price == 60_000_000 && created.bargainPrice == 59_999_500)
            #expect(created.images.count == 2 && created.vendor?.name == "demo")
            #expect(created.description == "전신 패딩 팝니다. 개당 가격 5만. 네고 사절")

            let page = try await client.listProducts(page: 1, itemsPerPage: 20)
            #expect(page.pages.map(\.id) == [created.id] && page.totalCount == 1)
            if dialect == .v2b {
                #expect(page.pages[0].vendorName == "demo" && page.pages[0].description == created.description)
            }

            var changes = ProductChanges()
            changes.price = 70_000
            changes.discountedPrice = 0
            changes.thumbnailID = created.images[1].id
            changes.description = "새 설명입니다. 열 글자 이상"
            let updated = try await client.update(id: created.id, changes: changes)
            #expect(updated.price == 70_000 && updated.discountedPrice == 0 && updated.name == created.name)
            #expect(updated.thumbnail == created.images[1].thumbnailURL)
            #expect(updated.description == "새 설명입니다. 열 글자 이상")
            #expect(try await client.product(id: created.id) == updated)

            let deleted = try await client.delete(id: created.id, password: harness.secret)
            #expect(deleted.id == created.id)
            await #expect(throws: OpenMarketError.self) { _ = try await client.product(id: created.id) }
            #expect(try await harness.productCount() == 0)
            for image in created.images {
                #expect(try await harness.get(URL(string: image.url)!.path).status == 404)
            }
        }
    }

    @Test func registerAcceptsParamsWithOrWithoutContentTypeAndEitherDescriptionKey() async throws {
        try await withSandbox { harness in
            let image = SampleProducts.image(index: 0, imageIndex: 0)
            for contentType in [nil, "application/json", "text/plain; charset=utf-8"] {
                let multipart = Multipart.product(dialect: .v2a, secret: harness.secret, name: "typed \(contentType ?? "none")",
                                                  images: [image], paramsContentType: contentType)
                let response = try await harness.register(multipart)
                #expect(response.status == 200, "\(response.text)")
                #expect(response.json?["name"] as? String == "typed \(contentType ?? "none")")
            }
            // v2b's key in a v2a sandbox, params sent as a file part, image declared with a wrong type.
            var multipart = Multipart()
            let params = #"{"name":"other key","description":"tolerated key","price":1000,"currency":"USD","secret":"\#(harness.secret)","unknown":{"x":1}}"#
            multipart.add(name: "params", filename: "params.json", contentType: "application/json", data: Data(params.utf8))
            multipart.add(name: "images", filename: "photo.svg", contentType: "image/svg+xml", data: Data(image))
            multipart.finish()
            let response = try await harness.register(multipart)
            #expect(response.status == 200, "\(response.text)")
            #expect(response.json?["description"] as? String == "tolerated key")
            #expect(response.text.contains(#""currency":"USD","price":1000.0,"#))
            let images = try #require(response.json?["images"] as? [[String: Any]])
            #expect((images.first?["url"] as? String)?.hasSuffix(".png") == true)   // the bytes decide
        }
    }

    @Test func patchIsPartialAndAnswersTheUpdatedDetail() async throws {
        try await withSandbox { harness in
            let id = try await harness.registerProduct(name: "before", price: 50_000, discount: 1_000)
            let response = try await harness.send("PATCH", "/api/products/\(id)",
                                                  json: #"{"secret":"\#(harness.secret)","stock":9,"descriptions":"changed text"}"#)
            #expect(response.status == 200)
            #expect(response.text.contains(#""name":"before""#))
            #expect(response.text.contains(#""price":50000.0,"description":"changed text","bargain_price":49000.0,"discounted_price":1000.0,"stock":9,"#))
            let lowered = try await harness.send("PATCH", "/api/products/\(id)", json: #"{"secret":"\#(harness.secret)","price":500}"#)
            #expect(lowered.status == 400)
            #expect(lowered.json?["message"] as? String == "price: the discounted price (1000.0) must not exceed the price (500.0)")
            let detail = try await harness.get("/api/products/\(id)")
            #expect(detail.json?["price"] as? Double == 50_000 && detail.json?["stock"] as? Int == 9)
        }
    }

    @Test func v2aDeleteIsSecretThenDeleteAndTheProductSecretIsSingleUse() async throws {
        try await withSandbox { harness in
            let id = try await harness.registerProduct(name: "to delete")
            let keep = try await harness.registerProduct(name: "to keep")
            let secretResponse = try await harness.send("POST", "/api/products/\(id)/secret", json: #"{"secret":"\#(harness.secret)"}"#)
            #expect(secretResponse.status == 200)
            #expect(secretResponse.header("content-type")?.hasPrefix("text/plain") == true)
            let productSecret = secretResponse.text
            #expect(UUID(uuidString: productSecret) != nil && productSecret != harness.secret)
            let another = try await harness.send("POST", "/api/products/\(id)/secret", json: #"{"secret":"\#(harness.secret)"}"#)
            #expect(another.text != productSecret)   // unguessable: a fresh one every time

            // The vendor secret in the path is not a product secret.
            let withVendorSecret = try await harness.send("DELETE", "/api/products/\(id)/\(harness.secret)", json: nil)
            #expect(withVendorSecret.status == 400)
            #expect((withVendorSecret.json?["message"] as? String)?.hasPrefix("product secret:") == true)
            // A product secret opens only its own product.
            let otherProduct = try await harness.send("DELETE", "/api/products/\(keep)/\(productSecret)", json: nil)
            #expect(otherProduct.status == 400)

            let deleted = try await harness.send("DELETE", "/api/products/\(id)/\(productSecret)", json: nil)
            #expect(deleted.status == 200 && deleted.json?["id"] as? Int == id && deleted.json?["name"] as? String == "to delete")
            #expect(try await harness.get("/api/products/\(id)").status == 404)
            let reused = try await harness.send("DELETE", "/api/products/\(id)/\(productSecret)", json: nil)
            #expect(reused.status == 404)
            #expect(try await harness.productCount() == 1)
        }
    }

    @Test func v2bDeleteIsArchiveThenDeleteThatPathOnce() async throws {
        try await withSandbox(dialect: .v2b) { harness in
            let id = try await harness.registerProduct(name: "archived one")
            let archived = try await harness.send("POST", "/api/products/\(id)/archived", json: #"{"secret":"\#(harness.secret)"}"#)
            #expect(archived.status == 200 && archived.header("content-type")?.hasPrefix("text/plain") == true)
            let path = archived.text
            #expect(path.hasPrefix("/api/products/") && path.count == "/api/products/".count + 32)
            let deleted = try await harness.send("DELETE", path, json: nil)
            #expect(deleted.status == 200)
            #expect(deleted.text.hasSuffix(#""vendors":{"id":\#(harness.sandbox.demoVendor.id),"name":"demo"}}"#))
            let reused = try await harness.send("DELETE", path, json: nil)
            #expect(reused.status == 404 && reused.json?["code"] as? Int == 404)
            #expect(try await harness.productCount() == 0)
            // The v2a flow is not part of v2b.
            #expect(try await harness.send("POST", "/api/products/\(id)/secret", json: #"{"secret":"x"}"#).status == 404)
        }
    }

    @Test func v2bPagesAreCamelCaseWithVendorNameAndDescription() async throws {
        try await withSandbox(dialect: .v2b) { harness in
            let id = try await harness.registerProduct(name: "camel", price: 50_000)
            let page = try await harness.get("/api/products?page_no=1&items_per_page=10")
            let today = Day.today().description
            #expect(page.text == """
                {"pageNo":1,"itemsPerPage":10,"totalCount":1,"offset":0,"limit":10,"lastPage":1,"hasNext":false,"hasPrev":false,\
                "pages":[{"id":\(id),"vendor_id":\(harness.sandbox.demoVendor.id),"vendorName":"demo","name":"camel",\
                "description":"A fine test product","thumbnail":"\((page.json?["pages"] as? [[String: Any]])?.first?["thumbnail"] as? String ?? "")",\
                "currency":"KRW","price":50000.0,"bargain_price":50000.0,"discounted_price":0.0,"stock":5,\
                "created_at":"\(today)T00:00:00","issued_at":"\(today)T00:00:00"}]}
                """)
            let detail = try await harness.get("/api/products/\(id)")
            #expect(!detail.text.contains("succeed") && detail.text.contains(#""issued_at":"\#(today)T00:00:00"}],"#))
        }
    }

    @Test func strictModeEnforcesLowerBounds() async throws {
        try await withSandbox(strict: true) { harness in
            let image = SampleProducts.image(index: 0, imageIndex: 0)
            var multipart = Multipart()
            multipart.add(name: "params", data: Data(#"{"name":"ab","descriptions":"short","price":10,"currency":"KRW","secret":"\#(harness.secret)"}"#.utf8))
            multipart.add(name: "images", filename: "a.png", data: Data(image))
            multipart.finish()
            let response = try await harness.register(multipart)
            #expect(response.status == 400)
            #expect(response.json?["message"] as? String
                    == "name: must be at least 3 characters (got 2); descriptions: must be at least 10 characters (got 5)")
            #expect(try await harness.productCount() == 0)
        }
        try await withSandbox(strict: false) { harness in
            let id = try await harness.registerProduct(name: "ab")
            #expect(try await harness.get("/api/products/\(id)").json?["name"] as? String == "ab")
        }
    }
}
