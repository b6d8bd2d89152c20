import Foundation
import OpenMarketCore
import Testing
@testable import OpenMarketSandbox
import TestSupport

/// GET endpoints over real HTTP, checked byte for byte.
@Suite(.awaitsTeardown) struct SandboxReadTests {
    @Test func healthCheckAnswersQuotedOKAsPlainText() async throws {
        try await withSandbox { harness in
            let response = try await harness.get("/healthChecker")
            #expect(response.status == 200)
            #expect(response.text == "\"OK\"")
            #expect(response.header("content-type")?.hasPrefix("text/plain") == true)
            #expect(try await harness.client().healthCheck())
        }
    }

    @Test func emptyStoreAnswers204WithAnEmptyBody() async throws {
        try await withSandbox { harness in
            let response = try await harness.get("/api/products")
            #expect(response.status == 204)
            #expect(response.body.isEmpty)
        }
    }

    @Test func v2aListPageHasTheRealLayoutAndDerivedValues() async throws {
        try await withSandbox { harness in
            let first = try await harness.registerProduct(name: "first", price: 50_000)
            let second = try await harness.registerProduct(name: "second", price: 60_000_000, discount: 500)
            let third = try await harness.registerProduct(name: "third", price: 19.99, currency: "USD")

            let page = try await harness.get("/api/products?page_no=1&items_per_page=2")
            #expect(page.status == 200)
            #expect(page.header("content-type")?.hasPrefix("application/json") == true)
            #expect(page.text.hasPrefix(#"{"page_no":1,"items_per_page":2,"total_count":3,"offset":0,"limit":2,"pages":[{"id":\#(third),"vendor_id":"#))
            #expect(page.text.hasSuffix(#"],"last_page":2,"has_next":true,"has_prev":false}"#))
            #expect(page.text.contains(#""name":"second","thumbnail":"http://127.0.0.1:\#(harness.port)/media/thumb/"#))
            #expect(page.text.contains(#""currency":"KRW","price":6.0E7,"bargain_price":5.99995E7,"discounted_price":500.0,"stock":5,"#))
            #expect(page.text.contains(#""price":19.99,"bargain_price":19.99,"discounted_price":0.0"#))
            #expect(!page.text.contains("description") && !page.text.contains("vendorName"))
            let today = Day.today().description
            #expect(page.text.contains(#""created_at":"\#(today)T00:00:00.00","issued_at":"\#(today)T00:00:00.00"}"#))

            let last = try await harness.get("/api/products?page_no=2&items_per_page=2")
            #expect(last.text.hasPrefix(#"{"page_no":2,"items_per_page":2,"total_count":3,"offset":2,"limit":4,"pages":[{"id":\#(first),"#))
            #expect(last.text.hasSuffix(#""last_page":2,"has_next":false,"has_prev":true}"#))
            #expect(last.text.contains(#""price":50000.0"#))

            let past = try await harness.get("/api/products?page_no=3&items_per_page=2")
            #expect(past.status == 204 && past.body.isEmpty)
            _ = second
        }
    }

    @Test func listQueryDefaultsCapAndRefusals() async throws {
        try await withSandbox { harness in
            _ = try await harness.registerProduct()
            let defaults = try await harness.get("/api/products")
            #expect(defaults.json?["page_no"] as? Int == 1 && defaults.json?["items_per_page"] as? Int == 20)
            let capped = try await harness.get("/api/products?page_no=1&items_per_page=500")
            #expect(capped.json?["items_per_page"] as? Int == 100 && capped.json?["limit"] as? Int == 100)
            for query in ["page_no=0", "page_no=abc", "items_per_page=0", "items_per_page=-3", "page_no=", "items_per_page=1.5"] {
                let refused = try await harness.get("/api/products?\(query)")
                #expect(refused.status == 400, "\(query)")
                #expect(refused.header("content-type")?.hasPrefix("application/json") == true)
                #expect(refused.json?["code"] as? Int == 400)
                #expect((refused.json?["message"] as? String)?.contains(query.hasPrefix("page") ? "page_no" : "items_per_page") == true)
            }
        }
    }

    @Test func searchIsACaseInsensitiveLiteralSubstringOfProductOrVendorName() async throws {
        try await withSandbox { harness in
            let mug = try await harness.registerProduct(name: "Blue MUG")
            let cotton = try await harness.registerProduct(name: "100% cotton")
            let padding = try await harness.registerProduct(name: "전신 패딩")
            func ids(_ search: String) async throws -> [Int] {
                let encoded = search.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let response = try await harness.get("/api/products?search_value=\(encoded)")
                if response.status == 204 { return [] }
                return (response.json?["pages"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } ?? []
            }
            #expect(try await ids("mug") == [mug])
            #expect(try await ids("%") == [cotton])
            #expect(try await ids("_") == [])
            #expect(try await ids("패딩") == [padding])
            #expect(try await ids("DEMO") == [padding, cotton, mug])   // the vendor's name
            let page = try await harness.client().listProducts(page: 1, itemsPerPage: 20, search: "패딩")
            #expect(page.pages.map(\.id) == [padding] && page.totalCount == 1)
        }
    }

    @Test func v2aDetailHasImagesWithSucceedAndTheVendor() async throws {
        try await withSandbox { harness in
            let id = try await harness.registerProduct(name: "Mug", price: 60_000_000, images: [
                SampleProducts.image(index: 1, imageIndex: 0), SampleProducts.image(index: 2, imageIndex: 0)])
            let response = try await harness.get("/api/products/\(id)")
            #expect(response.status == 200)
            let text = response.text
            #expect(text.hasPrefix(#"{"id":\#(id),"vendor_id":\#(harness.sandbox.demoVendor.id),"name":"Mug","thumbnail":"http://127.0.0.1:\#(harness.port)/media/thumb/"#))
            #expect(text.contains(#""currency":"KRW","price":6.0E7,"description":"A fine test product","bargain_price":6.0E7,"discounted_price":0.0,"stock":5,"#))
            #expect(text.contains(#""succeed":true,"issued_at":""#))
            let today = Day.today().description
            #expect(text.hasSuffix(#""vendors":{"name":"demo","id":\#(harness.sandbox.demoVendor.id),"created_at":"\#(today)T00:00:00.00","issued_at":"\#(today)T00:00:00.00"}}"#))
            let images = try #require(response.json?["images"] as? [[String: Any]])
            #expect(images.count == 2)
            #expect(response.json?["thumbnail"] as? String == images[0]["thumbnail_url"] as? String)

            let missing = try await harness.get("/api/products/999999")
            #expect(missing.status == 404 && missing.text == #"{"code":404,"message":"product 999999 does not exist"}"#)
            #expect(try await harness.get("/api/products/abc").status == 404)
        }
    }

    @Test func imagesAreServedWithTypeETagAndLongCaching() async throws {
        try await withSandbox { harness in
            let png = SampleProducts.image(index: 5, imageIndex: 1)
            let gif = [UInt8]("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B]
            let id = try await harness.registerProduct(images: [png, gif])
            let detail = try await harness.client().product(id: id)
            #expect(detail.images.count == 2)
            for (image, bytes, type) in [(detail.images[0], png, "image/png"), (detail.images[1], gif, "image/gif")] {
                let url = try #require(URL(string: image.url))
                #expect(url.host == "127.0.0.1" && url.port == harness.port && url.path.hasPrefix("/media/"))
                let response = try await harness.get(url.path)
                #expect(response.status == 200 && [UInt8](response.body) == bytes)
                #expect(response.header("content-type") == type)
                #expect(response.header("cache-control") == "public, max-age=31536000, immutable")
                let etag = try #require(response.header("etag"))
                #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
                let thumbnail = try await harness.get(try #require(URL(string: image.thumbnailURL)).path)
                #expect([UInt8](thumbnail.body) == bytes)
                let revalidated = try await harness.get(url.path, headers: [("If-None-Match", etag)])
                #expect(revalidated.status == 304 && revalidated.body.isEmpty)
            }
            #expect(try await harness.get("/media/..%2Fopenmarket.sqlite").status == 404)
            #expect(try await harness.get("/media/00000000000000000000000000000000.png").status == 404)
        }
    }

    @Test func imageURLsFollowTheHostTheClientUsed() async throws {
        try await withSandbox { harness in
            let id = try await harness.registerProduct()
            func answer(host: String) async throws -> RawResponse {
                let request = "GET /api/products/\(id) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n"
                return try await RawHTTPClient.exchange(port: harness.port, bytes: Array(request.utf8))
            }
            func detail(host: String) async throws -> String { try await answer(host: host).text }
            #expect(try await detail(host: "localhost:\(harness.port)").contains("\"url\":\"http://localhost:\(harness.port)/media/"))
            #expect(try await detail(host: "127.0.0.1:\(harness.port)").contains("\"url\":\"http://127.0.0.1:\(harness.port)/media/"))
            // Any other Host is refused before anything is read (DNS rebinding), 421.
            for foreign in ["192.168.0.7:8081", "evil\"host", "rebind.example:\(harness.port)", "127.0.0.1:1", "localhost"] {
                #expect(try await answer(host: foreign).status == 421, "\(foreign) was answered")
            }
        }
    }

    @Test func repeatedReadsFollowEveryWrite() async throws {
        try await withSandbox { harness in
            let path = "/api/products?page_no=1&items_per_page=5"
            #expect(try await harness.get(path).status == 204)
            let id = try await harness.registerProduct(name: "first")
            #expect(try await harness.get(path).json?["total_count"] as? Int == 1)
            #expect(try await harness.get("/api/products/\(id)").json?["stock"] as? Int == 5)
            let edit = try await harness.send("PATCH", "/api/products/\(id)", json: #"{"secret":"\#(harness.secret)","stock":7}"#)
            #expect(edit.status == 200)
            #expect(try await harness.get("/api/products/\(id)").json?["stock"] as? Int == 7)
            #expect(try await harness.get(path).text.contains(#""stock":7"#))
            let token = try await harness.send("POST", "/api/products/\(id)/secret", json: #"{"secret":"\#(harness.secret)"}"#).text
            #expect(try await harness.send("DELETE", "/api/products/\(id)/\(token)", json: nil).status == 200)
            #expect(try await harness.get(path).status == 204)
            #expect(try await harness.get("/api/products/\(id)").status == 404)
        }
    }
}
