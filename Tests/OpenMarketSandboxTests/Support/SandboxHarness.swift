import Foundation
import OpenMarketCore
@testable import OpenMarketSandbox
import TestSupport

/// A sandbox on an ephemeral loopback port with a fresh data folder, acting for the vendor
/// "demo", plus a second vendor ("other") for the ownership checks. Call `stop()` at the end of
/// each test.
struct SandboxHarness {
    static let demo = VendorSeed(name: "demo", identifier: "8a7c2b3e-0000-4000-8000-000000000001", secret: "demo-secret")
    static let other = VendorSeed(name: "other shop", identifier: "8a7c2b3e-0000-4000-8000-000000000002", secret: "other-secret")

    let folder: TemporaryFolder
    let sandbox: Sandbox
    let port: Int
    let dialect: Dialect

    init(dialect: Dialect = .v2a, strict: Bool = false, seed: Int = 0, folder: TemporaryFolder? = nil) throws {
        self.folder = try folder ?? TemporaryFolder()
        var configuration = SandboxConfiguration(dataDirectory: self.folder.url)
        configuration.port = 0
        configuration.dialect = dialect
        configuration.strict = strict
        configuration.seed = seed
        configuration.vendors = [Self.demo, Self.other]
        configuration.logRequests = false
        sandbox = try Sandbox(configuration: configuration)
        port = try sandbox.start()
        self.dialect = dialect
    }

    func stop() async {
        await sandbox.shutdown()
        folder.remove()
    }

    var identifier: String { sandbox.demoVendor.identifier }
    var secret: String { sandbox.demoVendor.secret }
    var base: String { "http://127.0.0.1:\(port)" }

    func client(identifier: String? = nil, secret: String? = nil) -> OpenMarketClient {
        OpenMarketClient(configuration: ClientConfiguration(
            baseURL: URL(string: base)!, dialect: dialect,
            identifier: identifier ?? self.identifier, secret: secret ?? self.secret, timeout: 60))
    }

    // MARK: Raw requests

    func get(_ path: String, headers: [(String, String)] = []) async throws -> RawResponse {
        try await RawHTTPClient.request(port: port, method: "GET", path: path, headers: headers)
    }

    /// A write with JSON body and the demo vendor's identifier unless told otherwise.
    func send(_ method: String, _ path: String, json: String?, identifier: String?? = .none) async throws -> RawResponse {
        var headers: [(String, String)] = [("Content-Type", "application/json")]
        if let identifier = identifier ?? self.identifier { headers.append(("identifier", identifier)) }
        return try await RawHTTPClient.request(port: port, method: method, path: path, headers: headers,
                                         body: json.map { Data($0.utf8) })
    }

    /// `POST /api/products` with a multipart body built by `Multipart`.
    func register(_ multipart: Multipart, identifier: String?? = .none) async throws -> RawResponse {
        var headers: [(String, String)] = [("Content-Type", multipart.contentType)]
        if let identifier = identifier ?? self.identifier { headers.append(("identifier", identifier)) }
        return try await RawHTTPClient.request(port: port, method: "POST", path: "/api/products", headers: headers,
                                      body: multipart.body)
    }

    /// Registers a valid product through raw multipart and returns its id.
    func registerProduct(name: String = "Test product", price: Double = 50_000, discount: Double = 0,
                         currency: String = "KRW", images: [[UInt8]]? = nil) async throws -> Int {
        let multipart = Multipart.product(dialect: dialect, secret: secret, name: name, price: price,
                                          discount: discount, currency: currency,
                                          images: images ?? [SampleProducts.image(index: 3, imageIndex: 0)])
        let response = try await register(multipart)
        guard response.status == 200, let id = response.json?["id"] as? Int else {
            throw RawHTTPClient.Failure(description: "register failed: \(response.status) \(response.text)")
        }
        return id
    }

    /// How many products the list says there are (0 on a 204).
    func productCount() async throws -> Int {
        let response = try await get("/api/products?page_no=1&items_per_page=1")
        if response.status == 204 { return 0 }
        return (response.json?[dialect == .v2a ? "total_count" : "totalCount"] as? Int) ?? -1
    }
}

/// Hand-built multipart/form-data bodies, including broken ones.
struct Multipart {
    var boundary = "----sandbox-test-boundary-7MA4YWxkTrZu0gW"
    var body = Data()
    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    mutating func add(name: String, filename: String? = nil, contentType: String? = nil, data: Data) {
        var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\""
        if let filename { head += "; filename=\"\(filename)\"" }
        head += "\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        head += "\r\n"
        body.append(Data(head.utf8))
        body.append(data)
        body.append(Data("\r\n".utf8))
    }

    mutating func finish() { body.append(Data("--\(boundary)--\r\n".utf8)) }

    static func params(dialect: Dialect, secret: String, name: String = "Test product", price: Double = 50_000,
                       discount: Double = 0, currency: String = "KRW", extra: String = "") -> String {
        let key = dialect == .v2a ? "descriptions" : "description"
        return #"{"name":"\#(name)","\#(key)":"A fine test product","price":\#(price),"currency":"\#(currency)","discounted_price":\#(discount),"stock":5,"secret":"\#(secret)"\#(extra)}"#
    }

    static func product(dialect: Dialect, secret: String, name: String = "Test product", price: Double = 50_000,
                        discount: Double = 0, currency: String = "KRW", images: [[UInt8]],
                        paramsContentType: String? = nil) -> Multipart {
        var multipart = Multipart()
        multipart.add(name: "params", contentType: paramsContentType,
                      data: Data(params(dialect: dialect, secret: secret, name: name, price: price,
                                        discount: discount, currency: currency).utf8))
        for (index, image) in images.enumerated() {
            multipart.add(name: "images", filename: "image\(index).png", contentType: "image/png", data: Data(image))
        }
        multipart.finish()
        return multipart
    }
}

/// Runs `body` against a fresh sandbox and always stops it (and removes its folder) afterwards.
func withSandbox(dialect: Dialect = .v2a, strict: Bool = false, seed: Int = 0,
                 _ body: (SandboxHarness) async throws -> Void) async throws {
    try await withServer({ try SandboxHarness(dialect: dialect, strict: strict, seed: seed) }, body)
}

extension SandboxHarness: StoppableServer {}
