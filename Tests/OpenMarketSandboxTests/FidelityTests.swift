import Foundation
import OpenMarketCore
import Testing
import TestSupport
@testable import OpenMarketSandbox

/// What real third-party clients tripped over: trailing slashes, image URL extensions, the shape
/// of v2a product secrets, control characters in text, missing headers.
@Suite(.awaitsTeardown) struct FidelityTests {
    /// Every v2 route with one trailing slash answers like the route without it.
    @Test(arguments: [Dialect.v2a, .v2b])
    func everyV2RouteTakesATrailingSlash(dialect: Dialect) async throws {
        let harness = try SandboxHarness(dialect: dialect)
        Teardown.add { await harness.stop() }
        #expect(try await harness.get("/healthChecker/").text == "\"OK\"")
        // The 2023 client: register at `/api/products/`, list at `/api/products/?…`.
        let multipart = Multipart.product(dialect: dialect, secret: harness.secret, images: [SampleProducts.image(index: 2, imageIndex: 0)])
        var headers = [("Content-Type", multipart.contentType)]
        headers.append(("identifier", harness.identifier))
        let created = try await RawHTTPClient.request(port: harness.port, method: "POST", path: "/api/products/", headers: headers, body: multipart.body)
        #expect(created.status == 200, "\(created.text)")
        let id = try #require(created.json?["id"] as? Int)
        let list = try await harness.get("/api/products/?page_no=1&items_per_page=100&search_value=")
        let withoutSlash = try await harness.get("/api/products?page_no=1&items_per_page=100&search_value=")
        #expect(list.status == 200 && list.text == withoutSlash.text)
        #expect(try await harness.get("/api/products/\(id)/").status == 200)
        let detail = try OpenMarketJSON.decodeDetail(try await harness.get("/api/products/\(id)").body)
        let image = try await harness.get(URL(string: detail.images[0].url)!.path + "/")
        #expect(image.status == 200 && image.header("X-Content-Type-Options") == "nosniff")
        #expect(try await harness.get(URL(string: detail.images[0].thumbnailURL)!.path + "/").status == 200)
        let edited = try await harness.send("PATCH", "/api/products/\(id)/", json: #"{"secret":"\#(harness.secret)","stock":9}"#)
        #expect(edited.status == 200 && edited.json?["stock"] as? Int == 9)
        switch dialect {
        case .v2a:
            let secret = try await harness.send("POST", "/api/products/\(id)/secret/", json: #"{"secret":"\#(harness.secret)"}"#)
            #expect(secret.status == 200)
            #expect(try await harness.send("DELETE", "/api/products/\(id)/\(secret.text)/", json: nil).status == 200)
        default:
            let archived = try await harness.send("POST", "/api/products/\(id)/archived/", json: #"{"secret":"\#(harness.secret)"}"#)
            #expect(archived.status == 200)
            #expect(try await harness.send("DELETE", archived.text + "/", json: nil).status == 200)
        }
        // Two slashes are not one.
        #expect(try await harness.get("/api/products//").status == 404)
    }

    @Test func everyV1RouteTakesATrailingSlash() async throws {
        let harness = try SandboxHarness(dialect: .v1)
        Teardown.add { await harness.stop() }
        let form = V1APITests.form(V1APITests.validFields)
        let created = try await RawHTTPClient.request(port: harness.port, method: "POST", path: "/item/",
                                             headers: [("Content-Type", form.contentType)], body: form.body)
        #expect(created.status == 200)
        let detail = try OpenMarketJSON.decodeV1Detail(created.body)
        let pageWithout = try await harness.get("/items/1")
        #expect(try await harness.get("/items/1/").text == pageWithout.text)
        #expect(try await harness.get("/item/\(detail.id)/").text == created.text)
        #expect(try await harness.get(URL(string: detail.images[0])!.path + "/").status == 200)
        #expect(try await harness.get(URL(string: detail.thumbnails[0])!.path + "/").status == 200)
        let edit = V1APITests.form([("password", "pw 1234"), ("stock", "2")], images: [])
        #expect(try await RawHTTPClient.request(port: harness.port, method: "PATCH", path: "/item/\(detail.id)/",
                                       headers: [("Content-Type", edit.contentType)], body: edit.body).status == 200)
        #expect(try await harness.send("DELETE", "/item/\(detail.id)/", json: #"{"password":"pw 1234"}"#).status == 200)
    }

    /// v2a product secrets look like the live server's version 1 UUIDs, and are still unique.
    @Test func productSecretsAreShapedLikeUUIDVersion1() {
        var seen = Set<String>()
        for _ in 0..<200 {
            let token = RandomToken.uuidVersion1Shaped()
            #expect(token.range(of: #"^[0-9a-f]{8}-[0-9a-f]{4}-11ec-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"#, options: .regularExpression) != nil, "\(token)")
            seen.insert(token)
        }
        #expect(seen.count == 200)
    }

    @Test func theV2aSecretEndpointAnswersAVersion1ShapedSecret() async throws {
        let harness = try SandboxHarness(dialect: .v2a)
        Teardown.add { await harness.stop() }
        let id = try await harness.registerProduct()
        let secret = try await harness.send("POST", "/api/products/\(id)/secret", json: #"{"secret":"\#(harness.secret)"}"#)
        #expect(secret.text.range(of: #"^[0-9a-f]{8}-[0-9a-f]{4}-11ec-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"#, options: .regularExpression) != nil)
    }

    /// A NUL (or any control but tab, CR, LF) in a text field is a 400 naming the field, in
    /// register and edit; it used to be stored cut off at the NUL.
    @Test(arguments: [Dialect.v2a, .v2b])
    func controlCharactersAreRefusedByField(dialect: Dialect) async throws {
        let harness = try SandboxHarness(dialect: dialect)
        Teardown.add { await harness.stop() }
        let key = dialect == .v2a ? "descriptions" : "description"
        var multipart = Multipart()
        multipart.add(name: "params", data: Data(#"{"name":"\u0000\u0000\u0000abc","\#(key)":"fine\ttext\r\n","price":10,"currency":"KRW","secret":"\#(harness.secret)"}"#.utf8))
        multipart.add(name: "images", filename: "a.png", data: Data(SampleProducts.image(index: 1, imageIndex: 1)))
        multipart.finish()
        let refused = try await harness.register(multipart)
        #expect(refused.status == 400 && refused.json?["message"] as? String == "name: must not contain control characters (found U+0000)")
        #expect(try await harness.productCount() == 0)
        let id = try await harness.registerProduct()
        let edit = try await harness.send("PATCH", "/api/products/\(id)", json: #"{"secret":"\#(harness.secret)","\#(key)":"abc\u0000def more text"}"#)
        #expect(edit.status == 400 && edit.json?["message"] as? String == "\(key): must not contain control characters (found U+0000)")
        let escape = try await harness.send("PATCH", "/api/products/\(id)", json: #"{"secret":"\#(harness.secret)","name":"C1 \u0085 control"}"#)
        #expect(escape.status == 400 && (escape.json?["message"] as? String ?? "").hasPrefix("name:"))
        let kept = try OpenMarketJSON.decodeDetail(try await harness.get("/api/products/\(id)").body)
        #expect(kept.name == "Test product")
    }

    /// Image URLs end in the extension of the detected format, whatever the filename said.
    @Test(arguments: [Dialect.v2a, .v2b])
    func imageURLsTakeTheExtensionOfTheDetectedFormat(dialect: Dialect) async throws {
        let harness = try SandboxHarness(dialect: dialect)
        Teardown.add { await harness.stop() }
        let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B]
        var multipart = Multipart()
        multipart.add(name: "params", data: Data(Multipart.params(dialect: dialect, secret: harness.secret).utf8))
        multipart.add(name: "images", filename: "photo.jpeg", contentType: "image/jpeg", data: Data(gif))
        multipart.add(name: "images", filename: "noextension", data: Data(SampleProducts.image(index: 1, imageIndex: 1)))
        multipart.finish()
        let created = try await harness.register(multipart)
        let detail = try OpenMarketJSON.decodeDetail(created.body)
        #expect(detail.images.map { String($0.url.split(separator: ".").last ?? "") } == ["gif", "png"])
        #expect(detail.images.map { String($0.thumbnailURL.split(separator: ".").last ?? "") } == ["gif", "png"])
    }
}
