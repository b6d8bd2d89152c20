import Foundation
import OpenMarketCore
import Testing
@testable import OpenMarketSandbox
import TestSupport

/// Bad input on purpose: each refusal has its documented status, the JSON error body with a
/// message naming the field, and leaves the store as it was.
@Suite(.awaitsTeardown) struct SandboxRefusalTests {
    /// Checks status, the exact error JSON shape and (when given) the message, and that the
    /// products and image files are unchanged.
    private func expectRefusal(_ harness: SandboxHarness, status: Int, message: String? = nil, containing: String? = nil,
                               _ request: () async throws -> RawResponse,
                               sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let countBefore = try await harness.productCount()
        let filesBefore = try mediaFiles(harness)
        let response = try await request()
        #expect(response.status == status, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.header("content-type")?.hasPrefix("application/json") == true, sourceLocation: sourceLocation)
        let object = response.json
        #expect(object?.count == 2 && object?["code"] as? Int == status, "\(response.text)", sourceLocation: sourceLocation)
        let text = object?["message"] as? String ?? ""
        if let message { #expect(text == message, sourceLocation: sourceLocation) }
        if let containing { #expect(text.contains(containing), "\(text)", sourceLocation: sourceLocation) }
        #expect(!text.contains(harness.secret) && !text.contains(harness.identifier), sourceLocation: sourceLocation)
        #expect(try await harness.productCount() == countBefore, sourceLocation: sourceLocation)
        #expect(try mediaFiles(harness) == filesBefore, sourceLocation: sourceLocation)
    }

    private func mediaFiles(_ harness: SandboxHarness) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: harness.folder.url.appendingPathComponent("media").path))
    }

    private var png: [UInt8] { SampleProducts.image(index: 2, imageIndex: 2) }

    @Test func brokenRegisterRequests() async throws {
        try await withSandbox { harness in
            _ = try await harness.registerProduct()
            let secret = harness.secret
            let params = Multipart.params(dialect: .v2a, secret: secret)

            // Malformed multipart: no closing boundary.
            var unterminated = Multipart()
            unterminated.add(name: "params", data: Data(params.utf8))
            try await expectRefusal(harness, status: 400, containing: "body:") { try await harness.register(unterminated) }

            // Not multipart at all.
            try await expectRefusal(harness, status: 400, containing: "multipart/form-data") {
                try await harness.send("POST", "/api/products", json: params)
            }

            // Missing params.
            var noParams = Multipart()
            noParams.add(name: "images", filename: "a.png", data: Data(png))
            noParams.finish()
            try await expectRefusal(harness, status: 400, message: "params: the part is missing") { try await harness.register(noParams) }

            // Bad JSON in params.
            var badJSON = Multipart()
            badJSON.add(name: "params", data: Data(#"{"name": "x", "price": }"#.utf8))
            badJSON.add(name: "images", filename: "a.png", data: Data(png))
            badJSON.finish()
            try await expectRefusal(harness, status: 400, message: "params: not valid JSON") { try await harness.register(badJSON) }

            // Wrong types.
            var wrongTypes = Multipart()
            wrongTypes.add(name: "params", data: Data(#"{"name":"typed","descriptions":"fine text","price":"50000","currency":"KRW","stock":"3","secret":"\#(secret)"}"#.utf8))
            wrongTypes.add(name: "images", filename: "a.png", data: Data(png))
            wrongTypes.finish()
            try await expectRefusal(harness, status: 400, message: "price: must be a number; stock: must be a whole number") {
                try await harness.register(wrongTypes)
            }

            // Six images.
            let six = Multipart.product(dialect: .v2a, secret: secret, images: Array(repeating: png, count: 6))
            try await expectRefusal(harness, status: 400, message: "images: at most 5 images are allowed (got 6)") {
                try await harness.register(six)
            }

            // No image.
            let none = Multipart.product(dialect: .v2a, secret: secret, images: [])
            try await expectRefusal(harness, status: 400, message: "images: at least 1 image is required") {
                try await harness.register(none)
            }

            // A 400 KB image (a valid JPEG header, so only the size is wrong).
            let big = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x42, count: 400 * 1024)
            try await expectRefusal(harness, status: 400, message: "images: \"image0.png\" is 409604 bytes; the limit is 307200 bytes") {
                try await harness.register(Multipart.product(dialect: .v2a, secret: secret, images: [big]))
            }

            // A 2 MiB image, which the server spools to disk: refused by its size the same way.
            let huge = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x42, count: 2 * 1024 * 1024)
            try await expectRefusal(harness, status: 400, message: "images: \"image0.png\" is 2097156 bytes; the limit is 307200 bytes") {
                try await harness.register(Multipart.product(dialect: .v2a, secret: secret, images: [huge]))
            }

            // An SVG declared as PNG.
            let svg = [UInt8](#"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8)
            try await expectRefusal(harness, status: 400, message: "images: \"image1.png\" is not a JPEG, PNG, GIF or WebP image") {
                try await harness.register(Multipart.product(dialect: .v2a, secret: secret, images: [png, svg]))
            }

            // Rule breaks and image breaks reported together.
            try await expectRefusal(harness, status: 400, message: "currency: must be KRW or USD; images: at least 1 image is required") {
                try await harness.register(Multipart.product(dialect: .v2a, secret: secret, currency: "EUR", images: []))
            }

            // Missing secret.
            var noSecret = Multipart()
            noSecret.add(name: "params", data: Data(#"{"name":"x","descriptions":"y","price":1,"currency":"KRW"}"#.utf8))
            noSecret.add(name: "images", filename: "a.png", data: Data(png))
            noSecret.finish()
            try await expectRefusal(harness, status: 400, message: "secret: is required") { try await harness.register(noSecret) }
        }
    }

    @Test func credentialsOnRegister() async throws {
        try await withSandbox { harness in
            let good = Multipart.product(dialect: .v2a, secret: harness.secret, images: [png])
            try await expectRefusal(harness, status: 400, message: "identifier: the header is missing") {
                try await harness.register(good, identifier: .some(nil))
            }
            try await expectRefusal(harness, status: 401, message: "identifier: no vendor has this identifier") {
                try await harness.register(good, identifier: "11111111-2222-4333-8444-555555555555")
            }
            let wrongSecret = Multipart.product(dialect: .v2a, secret: "not-the-secret", images: [png])
            try await expectRefusal(harness, status: 401, message: "secret: does not match the vendor's secret") {
                try await harness.register(wrongSecret)
            }
            // Another vendor's secret with the demo identifier.
            let otherSecret = Multipart.product(dialect: .v2a, secret: SandboxHarness.other.secret, images: [png])
            try await expectRefusal(harness, status: 401) { try await harness.register(otherSecret) }
        }
    }

    /// Unknown parts are ignored however many there are: only the body's size answers 413.
    @Test(arguments: [Dialect.v2a, .v2b])
    func unknownPartsAreIgnoredHoweverMany(dialect: Dialect) async throws {
        try await withSandbox(dialect: dialect) { harness in
            var multipart = Multipart()
            for index in 0..<40 { multipart.add(name: "note\(index)", data: Data("ignored".utf8)) }
            multipart.add(name: "params", data: Data(Multipart.params(dialect: dialect, secret: harness.secret).utf8))
            multipart.add(name: "images", filename: "a.png", contentType: "image/png",
                          data: Data(SampleProducts.image(index: 3, imageIndex: 0)))
            multipart.finish()
            let response = try await harness.register(multipart)
            #expect(response.status == 200, "\(response.text)")
        }
    }

    @Test func wholeBodyOver8MiBIs413() async throws {
        try await withSandbox { harness in
            var huge = Multipart()
            huge.add(name: "params", data: Data(Multipart.params(dialect: .v2a, secret: harness.secret).utf8))
            huge.add(name: "images", filename: "a.png", data: Data(count: 8 * 1024 * 1024 + 10))
            huge.finish()
            try await expectRefusal(harness, status: 413, containing: "at most 8388608") { try await harness.register(huge) }
            // Just under: a rule (image size) refuses it instead.
            var under = Multipart()
            under.add(name: "params", data: Data(Multipart.params(dialect: .v2a, secret: harness.secret).utf8))
            under.add(name: "images", filename: "a.png", data: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(count: 7 * 1024 * 1024))
            under.finish()
            try await expectRefusal(harness, status: 400, containing: "the limit is 307200 bytes") { try await harness.register(under) }
        }
    }

    @Test(arguments: [Dialect.v2a, .v2b])
    func ownershipAndUnknownProducts(dialect: Dialect) async throws {
        try await withSandbox(dialect: dialect) { harness in
            let id = try await harness.registerProduct(name: "mine")
            let before = try await harness.get("/api/products/\(id)").text
            let other = SandboxHarness.other
            let otherBody = #"{"secret":"\#(other.secret)","price":1}"#
            let step = dialect == .v2a ? "secret" : "archived"

            // Another vendor, with valid credentials of its own: 403 on PATCH and delete step one.
            try await expectRefusal(harness, status: 403, message: "this product belongs to another vendor") {
                try await harness.send("PATCH", "/api/products/\(id)", json: otherBody, identifier: other.identifier)
            }
            try await expectRefusal(harness, status: 403) {
                try await harness.send("POST", "/api/products/\(id)/\(step)", json: otherBody, identifier: other.identifier)
            }
            // Unknown ids: 404.
            let mine = #"{"secret":"\#(harness.secret)","price":1}"#
            try await expectRefusal(harness, status: 404, message: "product 987654 does not exist") {
                try await harness.send("PATCH", "/api/products/987654", json: mine)
            }
            try await expectRefusal(harness, status: 404) {
                try await harness.send("POST", "/api/products/987654/\(step)", json: mine)
            }
            try await expectRefusal(harness, status: 404) { try await harness.get("/api/products/987654") }
            // Credentials on edits and deletes.
            try await expectRefusal(harness, status: 400, message: "identifier: the header is missing") {
                try await harness.send("PATCH", "/api/products/\(id)", json: mine, identifier: .some(nil))
            }
            try await expectRefusal(harness, status: 401, message: "identifier: no vendor has this identifier") {
                try await harness.send("POST", "/api/products/\(id)/\(step)", json: mine, identifier: "nobody")
            }
            try await expectRefusal(harness, status: 401, message: "secret: does not match the vendor's secret") {
                try await harness.send("PATCH", "/api/products/\(id)", json: #"{"secret":"wrong","price":1}"#)
            }
            try await expectRefusal(harness, status: 401) {
                try await harness.send("POST", "/api/products/\(id)/\(step)", json: #"{"secret":"wrong"}"#)
            }
            // Bad bodies and wrong types on PATCH.
            try await expectRefusal(harness, status: 400, message: "body: not valid JSON") {
                try await harness.send("PATCH", "/api/products/\(id)", json: "{secret: 1")
            }
            try await expectRefusal(harness, status: 400, message: "price: must be a number; stock: must be a whole number") {
                try await harness.send("PATCH", "/api/products/\(id)", json: #"{"secret":"\#(harness.secret)","price":"1","stock":2.5}"#)
            }
            try await expectRefusal(harness, status: 400, containing: "thumbnail_id: 999 is not an image of this product") {
                try await harness.send("PATCH", "/api/products/\(id)", json: #"{"secret":"\#(harness.secret)","thumbnail_id":999}"#)
            }

            #expect(try await harness.get("/api/products/\(id)").text == before)   // no refusal changed a field

            // Delete step two by the other vendor with a genuine token: 403, and the token survives.
            let issued = try await harness.send("POST", "/api/products/\(id)/\(step)", json: #"{"secret":"\#(harness.secret)"}"#)
            let deletePath = dialect == .v2a ? "/api/products/\(id)/\(issued.text)" : issued.text
            try await expectRefusal(harness, status: 403) {
                try await harness.send("DELETE", deletePath, json: nil, identifier: other.identifier)
            }
            try await expectRefusal(harness, status: 400, message: "identifier: the header is missing") {
                try await harness.send("DELETE", deletePath, json: nil, identifier: .some(nil))
            }
            if dialect == .v2a {
                try await expectRefusal(harness, status: 400, containing: "product secret: wrong or already used") {
                    try await harness.send("DELETE", "/api/products/\(id)/\(UUID().uuidString.lowercased())", json: nil)
                }
            } else {
                try await expectRefusal(harness, status: 404) {
                    try await harness.send("DELETE", "/api/products/0123456789abcdef0123456789abcdef", json: nil)
                }
            }
            #expect(try await harness.send("DELETE", deletePath, json: nil).status == 200)
            #expect(try await harness.productCount() == 0)
        }
    }

    @Test func unknownEndpointsAndMethodsAnswerJSON() async throws {
        try await withSandbox { harness in
            try await expectRefusal(harness, status: 404) { try await harness.get("/api/nothing") }
            // A secret in the wrong place of a path is never echoed back (checked by expectRefusal).
            try await expectRefusal(harness, status: 404, message: "no product has this id") {
                try await harness.get("/api/products/\(harness.secret)")
            }
            try await expectRefusal(harness, status: 404, message: "no such endpoint for DELETE") {
                try await harness.send("DELETE", "/api/nothing/\(harness.secret)", json: nil)
            }
            try await expectRefusal(harness, status: 405) {
                try await harness.send("PUT", "/api/products", json: "{}")
            }
        }
    }
}
