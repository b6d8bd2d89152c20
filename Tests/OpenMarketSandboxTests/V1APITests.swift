import Foundation
import OpenMarketCore
import Testing
import TestSupport
@testable import OpenMarketSandbox

/// `--dialect v1` end to end over real sockets: every endpoint, byte for byte where the API notes
/// fix the bytes, and the bad input the notes name.
@Suite(.awaitsTeardown) struct V1APITests {
    static let png = SampleProducts.image(index: 1, imageIndex: 0)
    static let gif: [UInt8] = Array("GIF89a".utf8) + [2, 0, 2, 0, 0, 0, 0, 0x3B]

    static func form(_ fields: [(String, String)], images: [[UInt8]] = [png], imageName: String = "images[]") -> Multipart {
        var multipart = Multipart()
        for (name, value) in fields { multipart.add(name: name, data: Data(value.utf8)) }
        for (index, image) in images.enumerated() {
            multipart.add(name: imageName, filename: "photo\(index).png", contentType: "image/png", data: Data(image))
        }
        multipart.finish()
        return multipart
    }

    static let validFields: [(String, String)] = [
        ("title", "MacBook Air"), ("descriptions", "가볍고 얇은 노트북\n두 줄"), ("price", "1290000"),
        ("currency", "KRW"), ("stock", "1000000000000"), ("password", "pw 1234"),
    ]

    static func send(_ harness: SandboxHarness, _ method: String, _ path: String, _ multipart: Multipart) async throws -> RawResponse {
        try await RawHTTPClient.request(port: harness.port, method: method, path: path,
                               headers: [("Content-Type", multipart.contentType)], body: multipart.body)
    }

    static func register(_ harness: SandboxHarness, _ fields: [(String, String)] = validFields,
                         images: [[UInt8]] = [png]) async throws -> Int {
        let response = try await send(harness, "POST", "/item", form(fields, images: images))
        guard response.status == 200, let id = response.json?["id"] as? Int else {
            throw RawHTTPClient.Failure(description: "register failed: \(response.status) \(response.text)")
        }
        return id
    }

    static func expectError(_ response: RawResponse, _ status: Int, _ reason: String,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == status, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.header("Content-Type") == "application/json; charset=utf-8", sourceLocation: sourceLocation)
        #expect(response.text == #"{"error":true,"reason":"\#(reason)"}"#, sourceLocation: sourceLocation)
    }

    static func expectErrorContaining(_ response: RawResponse, _ status: Int, _ text: String,
                                      sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == status, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.text.hasPrefix(#"{"error":true,"reason":""#) && response.text.contains(text),
                "\(response.text)", sourceLocation: sourceLocation)
    }

    @Test func registerAnswersTheDetailInTheDocumentedShape() async throws {
        let harness = try SandboxHarness(dialect: .v1)
        Teardown.add { await harness.stop() }
        let response = try await Self.send(harness, "POST", "/item", Self.form(Self.validFields, images: [Self.png, Self.gif]))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        let text = response.text
        // Key order, integers without a fraction, `\n` escaped, no discount key, no password.
        let pattern = #"^\{"id":1,"title":"MacBook Air","descriptions":"가볍고 얇은 노트북\\n두 줄","price":1290000,"currency":"KRW","stock":1000000000000,"thumbnails":\["http://127\.0\.0\.1:\d+/thumbnails/[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}\.png","http://127\.0\.0\.1:\d+/thumbnails/[0-9A-F-]{36}\.gif"\],"images":\["http://127\.0\.0\.1:\d+/images/[0-9A-F-]{36}\.png","http://127\.0\.0\.1:\d+/images/[0-9A-F-]{36}\.gif"\],"registration_date":\d{10}\.\d{1,7}\}$"#
        #expect(text.range(of: pattern, options: .regularExpression) != nil, "\(text)")
        #expect(!text.contains("pw 1234") && !text.contains("password"))

        // Image and thumbnail end in the same name and answer the uploaded bytes, nosniff.
        let detail = try OpenMarketJSON.decodeV1Detail(response.body)
        #expect(detail.images.map { $0.split(separator: "/").last } == detail.thumbnails.map { $0.split(separator: "/").last })
        let image = try await harness.get(URL(string: detail.images[1])!.path)
        #expect(image.status == 200 && [UInt8](image.body) == Self.gif)
        #expect(image.header("Content-Type") == "image/gif" && image.header("X-Content-Type-Options") == "nosniff")
        let thumbnail = try await harness.get(URL(string: detail.thumbnails[0])!.path)
        #expect(thumbnail.status == 200 && [UInt8](thumbnail.body) == Self.png && thumbnail.header("Content-Type") == "image/png")
        #expect(abs(detail.registrationDate.timeIntervalSinceNow) < 120)

        // GET answers the same bytes.
        let fetched = try await harness.get("/item/\(detail.id)")
        #expect(fetched.status == 200 && fetched.text == text)
    }

    @Test func listPagesAreOldestFirstTwentyAPageAndEmptyPastTheEnd() async throws {
        let harness = try SandboxHarness(dialect: .v1, seed: 23)
        Teardown.add { await harness.stop() }
        let first = try await harness.get("/items/1")
        #expect(first.status == 200 && first.header("Content-Type") == "application/json; charset=utf-8")
        let page = try OpenMarketJSON.decodeV1ListPage(first.body)
        #expect(page.page == 1 && page.items.map(\.id) == Array(1...20))
        #expect(first.text.hasPrefix(#"{"page":1,"items":[{"id":1,"title":"#))
        #expect(!first.text.contains("descriptions") && !first.text.contains(#""images""#))
        // List item key order: id, title, price, currency, stock, [discounted_price,] thumbnails, registration_date.
        let itemPattern = #"\{"id":2,"title":"[^"]+","price":\d+,"currency":"(KRW|USD)","stock":\d+,("discounted_price":\d+,)?"thumbnails":\[[^\]]*\],"registration_date":\d{10}(\.\d{1,7})?\}"#
        #expect(first.text.range(of: itemPattern, options: .regularExpression) != nil, "\(first.text.prefix(600))")
        let second = try OpenMarketJSON.decodeV1ListPage(try await harness.get("/items/2").body)
        #expect(second.items.map(\.id) == [21, 22, 23])
        let past = try await harness.get("/items/3")
        #expect(past.status == 200 && past.text == #"{"page":3,"items":[]}"#)
        let huge = try await harness.get("/items/9223372036854775807")
        #expect(huge.status == 200 && huge.text == #"{"page":9223372036854775807,"items":[]}"#)
        // A query string is ignored.
        #expect(try await harness.get("/items/1?page=2").text == first.text)
    }

    @Test(arguments: ["abc", "0", "-1", "1.5", "+1", "%201", "99999999999999999999"])
    func badPagesAre400(page: String) async throws {
        let harness = try SandboxHarness(dialect: .v1)
        Teardown.add { await harness.stop() }
        Self.expectError(try await harness.get("/items/\(page)"), 400, "page: must be a whole number of 1 or more")
    }

    @Test func unknownRoutesMethodsAndV2RoutesAre404() async throws {
        let harness = try SandboxHarness(dialect: .v1, seed: 1)
        Teardown.add { await harness.stop() }
        for path in ["/items", "/item", "/healthChecker", "/api/products", "/api/products/1", "/media/x.png", "/item/1/2",
                     "/images/not-a-uuid.png", "/thumbnails/3371E602-2C29-4734-8A9A-83A37DD24EAE.png"] {
            Self.expectError(try await harness.get(path), 404, "Not Found")
        }
        Self.expectError(try await harness.get("/item/999"), 404, "Not Found")
        Self.expectError(try await harness.get("/item/abc"), 400, "id: must be a whole number")
        Self.expectError(try await RawHTTPClient.request(port: harness.port, method: "POST", path: "/item/1"), 404, "Not Found")
        Self.expectError(try await RawHTTPClient.request(port: harness.port, method: "PUT", path: "/item/1"), 404, "Not Found")
        Self.expectError(try await harness.send("POST", "/api/products", json: "{}"), 404, "Not Found")
    }

    @Test func editChangesSentFieldsReplacesImagesAndNeedsThePassword() async throws {
        let harness = try SandboxHarness(dialect: .v1)
        Teardown.add { await harness.stop() }
        let id = try await Self.register(harness, images: [Self.png, Self.png])
        let before = try OpenMarketJSON.decodeV1Detail(try await harness.get("/item/\(id)").body)

        // Only the password: nothing changes, 200 with the detail (clients checked passwords so).
        let check = try await Self.send(harness, "PATCH", "/item/\(id)", Self.form([("password", "pw 1234")], images: []))
        let checked = try OpenMarketJSON.decodeV1Detail(check.body)
        #expect(check.status == 200 && checked == before)

        // Wrong password: 401 with the documented reason, nothing changed.
        Self.expectError(try await Self.send(harness, "PATCH", "/item/\(id)", Self.form([("password", "wrong"), ("title", "Hacked")], images: [])),
                         401, "Cannot find data for ID and password")
        // Missing password: 400.
        Self.expectError(try await Self.send(harness, "PATCH", "/item/\(id)", Self.form([("title", "No pw")], images: [])),
                         400, "password: is required")

        // A discount, a new title and one new image (sent as `images`, seed 001's name).
        let edit = Self.form([("password", "pw 1234"), ("title", "MacBook Air M1"), ("discounted_price", "0")],
                             images: [Self.gif], imageName: "images")
        let edited = try await Self.send(harness, "PATCH", "/item/\(id)/", edit)
        #expect(edited.status == 200, "\(edited.text)")
        let after = try OpenMarketJSON.decodeV1Detail(edited.body)
        #expect(after.title == "MacBook Air M1" && after.discountedPrice == 0 && after.price == before.price)
        #expect(after.registrationDate == before.registrationDate)
        #expect(after.images.count == 1 && after.images[0].hasSuffix(".gif"))
        #expect(edited.text.contains(#""stock":1000000000000,"discounted_price":0,"thumbnails""#))
        // The old images are gone.
        for url in before.images + before.thumbnails {
            #expect(try await harness.get(URL(string: url)!.path).status == 404)
        }
    }

    @Test func editRulesJudgeTheItemAfterTheChange() async throws {
        let harness = try SandboxHarness(dialect: .v1)
        Teardown.add { await harness.stop() }
        let id = try await Self.register(harness, [("title", "Mouse"), ("descriptions", "A mouse"), ("price", "1000"),
                                                   ("currency", "USD"), ("stock", "3"), ("discounted_price", "500"), ("password", "p")])
        Self.expectError(try await Self.send(harness, "PATCH", "/item/\(id)", Self.form([("password", "p"), ("price", "400")], images: [])),
                         400, "price: the discounted price (500) must not exceed the price (400)")
        Self.expectError(try await Self.send(harness, "PATCH", "/item/\(id)", Self.form([("password", "p"), ("price", "12.5")], images: [])),
                         400, "price: must be a whole number written with digits only")
        let unchanged = try OpenMarketJSON.decodeV1Detail(try await harness.get("/item/\(id)").body)
        #expect(unchanged.price == 1000 && unchanged.discountedPrice == 500)
        // The documented order: a wrong password wins over broken fields.
        Self.expectError(try await Self.send(harness, "PATCH", "/item/\(id)", Self.form([("password", "x"), ("price", "abc")], images: [])),
                         401, "Cannot find data for ID and password")
        // Unknown id wins over a broken body.
        var broken = Multipart()
        broken.add(name: "password", data: Data("p".utf8))
        Self.expectError(try await Self.send(harness, "PATCH", "/item/77", broken), 404, "Not Found")
    }

    @Test func deleteNeedsAJSONPasswordAndThenEverythingIsGone() async throws {
        let harness = try SandboxHarness(dialect: .v1)
        Teardown.add { await harness.stop() }
        let id = try await Self.register(harness)
        let other = try await Self.register(harness)
        let detail = try OpenMarketJSON.decodeV1Detail(try await harness.get("/item/\(id)").body)
        for body in ["", "{}", "[1]", #"{"password":1234}"#, #"{"password":""}"#, "not json"] {
            let response = try await RawHTTPClient.request(port: harness.port, method: "DELETE", path: "/item/\(id)",
                                                  headers: [("Content-Type", "application/json")], body: Data(body.utf8))
            #expect(response.status == 400, "\(body): \(response.text)")
        }
        Self.expectError(try await harness.send("DELETE", "/item/\(id)", json: #"{"password":"nope"}"#),
                         401, "Cannot find data for ID and password")
        // Jan 2021 clients also sent "id": ignored, even naming another item; any Content-Type.
        let deleted = try await RawHTTPClient.request(port: harness.port, method: "DELETE", path: "/item/\(id)/",
                                             headers: [("Content-Type", "text/plain")],
                                             body: Data(#"{"id":\#(other),"password":"pw 1234"}"#.utf8))
        #expect(deleted.status == 200)
        #expect(try OpenMarketJSON.decodeV1Detail(deleted.body) == detail)
        Self.expectError(try await harness.get("/item/\(id)"), 404, "Not Found")
        Self.expectError(try await harness.send("DELETE", "/item/\(id)", json: #"{"password":"pw 1234"}"#), 404, "Not Found")
        for url in detail.images + detail.thumbnails {
            #expect(try await harness.get(URL(string: url)!.path).status == 404)
        }
        #expect(try await harness.get("/item/\(other)").status == 200)
        // Ids are never reused.
        #expect(try await Self.register(harness) == other + 1)
    }

    @Test func registerRefusesBadInputNamingTheField() async throws {
        let harness = try SandboxHarness(dialect: .v1)
        Teardown.add { await harness.stop() }
        func fields(replacing name: String, with value: String?) -> [(String, String)] {
            Self.validFields.compactMap { $0.0 == name ? value.map { (name, $0) } : $0 }
        }
        func post(_ fields: [(String, String)], images: [[UInt8]] = [Self.png]) async throws -> RawResponse {
            try await Self.send(harness, "POST", "/item", Self.form(fields, images: images))
        }
        Self.expectError(try await post(fields(replacing: "title", with: "abc\u{0}def")), 400,
                         "title: must not contain control characters (found U+0000)")
        Self.expectError(try await post(fields(replacing: "descriptions", with: "bell\u{7}")), 400,
                         "descriptions: must not contain control characters (found U+0007)")
        Self.expectError(try await post(fields(replacing: "password", with: "p\u{85}w")), 400,
                         "password: must not contain control characters (found U+0085)")
        Self.expectError(try await post(fields(replacing: "price", with: "12.5")), 400, "price: must be a whole number written with digits only")
        Self.expectError(try await post(fields(replacing: "price", with: "+5")), 400, "price: must be a whole number written with digits only")
        Self.expectError(try await post(fields(replacing: "price", with: "0")), 400, "price: must be 1 or more")
        Self.expectError(try await post(fields(replacing: "stock", with: "-1")), 400, "stock: must be 0 or more")
        Self.expectError(try await post(fields(replacing: "currency", with: "krw")), 400, "currency: must be KRW or USD")
        Self.expectError(try await post(fields(replacing: "title", with: nil)), 400, "title: is required")
        Self.expectError(try await post(fields(replacing: "password", with: nil)), 400, "password: is required")
        Self.expectError(try await post(fields(replacing: "title", with: String(repeating: "가", count: 101))), 400,
                         "title: must be at most 100 characters (got 101)")
        Self.expectError(try await post(Self.validFields + [("discounted_price", "1290001")]), 400,
                         "discounted_price: the discounted price (1290001) must not exceed the price (1290000)")
        Self.expectError(try await post(Self.validFields + [("title", "again")]), 400, "title: sent more than once")
        Self.expectError(try await post(Self.validFields, images: Array(repeating: Self.png, count: 6)), 400,
                         "The number of images must be 5 or less")
        Self.expectError(try await post(Self.validFields, images: []), 400, "images: at least 1 image is required")
        let oversized = Self.png + [UInt8](repeating: 0, count: 307_201)
        Self.expectErrorContaining(try await post(Self.validFields, images: [oversized]), 400, "the limit is 307200 bytes")
        Self.expectErrorContaining(try await post(Self.validFields, images: [Array("<svg/>".utf8)]), 400,
                                   "is not a JPEG, PNG, GIF or WebP image")
        let bomb: [UInt8] = Array("GIF89a".utf8) + [0x11, 0x27, 0x01, 0x00, 0, 0, 0]   // 10001×1
        Self.expectErrorContaining(try await post(Self.validFields, images: [bomb]), 400, "each side can be at most 10000 pixels")
        // Nothing was stored by any of these.
        #expect(try await harness.get("/items/1").text == #"{"page":1,"items":[]}"#)
    }

    @Test func malformedBodiesAre400AndOversizedOnes413() async throws {
        let harness = try SandboxHarness(dialect: .v1)
        Teardown.add { await harness.stop() }
        let valid = Self.form(Self.validFields)
        func raw(_ contentType: String, _ body: Data) async throws -> RawResponse {
            try await RawHTTPClient.request(port: harness.port, method: "POST", path: "/item",
                                   headers: [("Content-Type", contentType)], body: body)
        }
        // JSON instead of multipart (a Jan 2021 client did this).
        Self.expectErrorContaining(try await raw("application/json", Data(#"{"title":"x"}"#.utf8)), 400, "multipart/form-data")
        Self.expectErrorContaining(try await raw("multipart/form-data", valid.body), 400, "boundary")
        // Cut short, and without the close delimiter.
        Self.expectErrorContaining(try await raw(valid.contentType, valid.body.prefix(valid.body.count / 2)), 400, "body:")
        Self.expectErrorContaining(try await raw(valid.contentType, valid.body.dropLast(valid.boundary.count + 6)), 400, "body:")
        // A part without a name.
        var nameless = Data("--\(valid.boundary)\r\nContent-Disposition: form-data\r\n\r\nx\r\n--\(valid.boundary)--\r\n".utf8)
        Self.expectErrorContaining(try await raw(valid.contentType, nameless), 400, "body:")
        // Invalid UTF-8 in a text field names the field.
        var badText = Multipart()
        badText.add(name: "title", data: Data([0x41, 0xFF, 0x42]))
        badText.finish()
        Self.expectErrorContaining(try await raw(badText.contentType, badText.body), 400, #"\"title\" is not UTF-8"#)
        nameless = Data()
        // The two size limits: a part's headers, and the whole body.
        var bigHeader = Multipart()
        bigHeader.add(name: "title", filename: String(repeating: "n", count: 100 * 1024), data: Data("x".utf8))
        bigHeader.finish()
        Self.expectErrorContaining(try await raw(bigHeader.contentType, bigHeader.body), 413, "Part headers are too large (at most 16384 bytes)")
        Self.expectErrorContaining(try await raw(valid.contentType, Data(count: 9 * 1024 * 1024)), 413, "at most 8388608 bytes")
    }

    /// The API notes: unknown text parts are ignored, a field sent twice is a 400, and 413 is for a
    /// body over 8 MiB. So the number of parts and the size of a text part never answer 413: a
    /// form of many parts is judged by its fields.
    @Test func aFormOfManyPartsIsJudgedByItsFieldsNotByItsPartCount() async throws {
        let harness = try SandboxHarness(dialect: .v1)
        Teardown.add { await harness.stop() }
        let unknown = (0..<40).map { ("note\($0)", "ignored") }
        let registered = try await Self.send(harness, "POST", "/item", Self.form(Self.validFields + unknown))
        #expect(registered.status == 200, "\(registered.text)")
        #expect(!registered.text.contains("note") && !registered.text.contains("ignored"))

        let repeated = Self.validFields + Array(repeating: ("title", "MacBook Air"), count: 29) + unknown
        Self.expectError(try await Self.send(harness, "POST", "/item", Self.form(repeated)), 400, "title: sent more than once")
        let sixImages = Self.form(Self.validFields + unknown, images: Array(repeating: Self.png, count: 6))
        Self.expectError(try await Self.send(harness, "POST", "/item", sixImages), 400, "The number of images must be 5 or less")
        let long = Self.validFields.filter { $0.0 != "descriptions" } + [("descriptions", String(repeating: "a", count: 70 * 1024))]
        Self.expectErrorContaining(try await Self.send(harness, "POST", "/item", Self.form(long)), 400,
                                   "descriptions: must be at most 1000 characters (got 71680)")
        // Nothing but the first registration was stored.
        let page = try await harness.get("/items/1")
        #expect((page.json?["items"] as? [Any])?.count == 1)
    }

    /// No body within the 8 MiB limit reaches the part cap: even the smallest part takes more
    /// bytes than the cap allows for, and a text part may be as large as the body.
    @Test func noFormWithinTheBodyLimitReachesAFormCap() {
        let limits = SandboxAPI.multipartLimits
        let smallestPart = "\r\n--b\r\ncontent-disposition:form-data;name=\r\n\r\n"
        #expect(smallestPart.utf8.count >= SandboxAPI.minimumPartBytes)
        #expect(limits.maxParts * SandboxAPI.minimumPartBytes >= SandboxAPI.maxBody)
        #expect(limits.maxFieldBytes >= SandboxAPI.maxBody && limits.maxFileBytes >= SandboxAPI.maxBody)
    }

    @Test func imagePartsAsTheClientsOf2021SentThem() async throws {
        let harness = try SandboxHarness(dialect: .v1)
        Teardown.add { await harness.stop() }
        var multipart = Multipart()
        // Images first; one with only a (quoted) Content-Type and no filename; one with a broken
        // filename; a text part named like images (seed 001's "[53412 bytes]") is ignored.
        multipart.add(name: "images[]", contentType: "\"image/jpeg\"", data: Data(Self.gif))
        multipart.add(name: "images[]", filename: "image\"0", data: Data(Self.png))
        multipart.add(name: "images", data: Data("[53412 bytes]".utf8))
        for (name, value) in Self.validFields { multipart.add(name: name, data: Data(value.utf8)) }
        multipart.add(name: "unknown", data: Data("ignored".utf8))
        multipart.finish()
        let response = try await Self.send(harness, "POST", "/item", multipart)
        #expect(response.status == 200, "\(response.text)")
        let detail = try OpenMarketJSON.decodeV1Detail(response.body)
        #expect(detail.images.count == 2 && detail.images[0].hasSuffix(".gif") && detail.images[1].hasSuffix(".png"))
    }

    @Test func theClientCoreSpeaksV1() async throws {
        let harness = try SandboxHarness(dialect: .v1)
        Teardown.add { await harness.stop() }
        let client = harness.client()
        #expect(try await client.healthCheck())
        let image = ImageUpload(filename: "a.png", data: Data(Self.png))
        let created = try await client.v1Register(V1NewItem(title: "Keyboard", descriptions: "Clicky keys", price: 30,
                                                            currency: .USD, stock: 2, password: "k-pass", images: [image]))
        #expect(created.title == "Keyboard" && created.price == 30 && created.discountedPrice == nil && created.images.count == 1)
        let edited = try await client.v1Edit(id: created.id, V1ItemChanges(stock: 5, discountedPrice: 3,
                                                                            images: [image, image], password: "k-pass"))
        #expect(edited.stock == 5 && edited.discountedPrice == 3 && edited.images.count == 2)
        await #expect(throws: OpenMarketError.unauthorized(message: "Cannot find data for ID and password")) {
            try await client.v1Edit(id: created.id, V1ItemChanges(stock: 1, password: "wrong"))
        }
        // The dialect-neutral calls the panel uses.
        let page = try await client.listProducts(page: 1, itemsPerPage: 20)
        #expect(page.pages.map(\.id) == [created.id] && page.totalCount == 1 && page.pages[0].bargainPrice == 27)
        let product = try await client.product(id: created.id)
        #expect(product.name == "Keyboard" && product.images.count == 2 && product.vendorID == 0)
        await #expect(throws: OpenMarketError.unauthorized(message: "Cannot find data for ID and password")) {
            try await client.delete(id: created.id, password: "nope")
        }
        let deleted = try await client.delete(id: created.id, password: "k-pass")
        #expect(deleted.id == created.id)
        await #expect(throws: OpenMarketError.notFound(message: "Not Found")) { try await client.v1Item(id: created.id) }
    }
}
