import Foundation
import HTTPServer
import OpenMarketCore
import SQLiteStore
import Testing
@testable import OpenMarketSandbox
import TestSupport

/// Kill -9 the sandbox process in the middle of concurrent registers and edits; after a
/// restart on the same folder, everything it acknowledged is there, byte for byte.
@Suite(.awaitsTeardown) struct CrashTests {
    static let vendor = VendorSeed(name: "crash", identifier: "c7a5b0c2-0000-4000-8000-00000000c0de", secret: "crash-secret")

    /// What the client was told (acknowledged) about one product, and an edit maybe in flight.
    struct Expected: Sendable {
        var name: String
        var price: Double
        var images: [[UInt8]]
        var stock: Int
        var stockInFlight: Int?
    }

    actor Ledger {
        var products: [Int: Expected] = [:]
        func acknowledge(_ id: Int, _ expected: Expected) { products[id] = expected }
        func sending(stock: Int, for id: Int) { products[id]?.stockInFlight = stock }
        func acknowledged(stock: Int, for id: Int) {
            products[id]?.stock = stock
            products[id]?.stockInFlight = nil
        }
        var count: Int { products.count }
    }

    /// A PNG unique to this worker and round (random trailing bytes after IEND keep it a PNG).
    static func uniqueImage(worker: Int, round: Int, index: Int) -> [UInt8] {
        SampleProducts.image(index: worker * 7 + round, imageIndex: index) + Secrets.randomBytes(64)
    }

    static func worker(_ number: Int, port: Int, ledger: Ledger) async {
        var round = 0
        while !Task.isCancelled {
            round += 1
            let name = "w\(number)-r\(round) 상품"
            let price = Double(1_000 * round + number) + 0.5
            let images = (0..<(1 + round % 3)).map { uniqueImage(worker: number, round: round, index: $0) }
            var multipart = Multipart()
            let params = #"{"name":"\#(name)","descriptions":"crash test","price":\#(price),"currency":"USD","stock":1,"secret":"\#(vendor.secret)"}"#
            multipart.add(name: "params", data: Data(params.utf8))
            for (index, image) in images.enumerated() {
                multipart.add(name: "images", filename: "\(index).png", data: Data(image))
            }
            multipart.finish()
            guard let response = try? await RawHTTPClient.request(
                port: port, method: "POST", path: "/api/products",
                headers: [("Content-Type", multipart.contentType), ("identifier", vendor.identifier)], body: multipart.body),
                  response.status == 200, let id = response.json?["id"] as? Int else { return }
            await ledger.acknowledge(id, Expected(name: name, price: price, images: images, stock: 1))

            for stock in [round * 10, round * 10 + 1] {
                await ledger.sending(stock: stock, for: id)
                guard let edited = try? await RawHTTPClient.request(
                    port: port, method: "PATCH", path: "/api/products/\(id)",
                    headers: [("Content-Type", "application/json"), ("identifier", vendor.identifier)],
                    body: Data(#"{"secret":"\#(vendor.secret)","stock":\#(stock)}"#.utf8)),
                      edited.status == 200 else { return }
                await ledger.acknowledged(stock: stock, for: id)
            }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func acknowledgedWritesSurviveKillNine() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let arguments = ["--data", folder.url.path, "--vendor", "\(Self.vendor.name):\(Self.vendor.identifier):\(Self.vendor.secret)"]
        let first = try await SandboxProcess.start(arguments)
        let ledger = Ledger()
        let port = first.port
        let workers = Task {
            await withTaskGroup(of: Void.self) { group in
                for number in 0..<4 {
                    group.addTask { await Self.worker(number, port: port, ledger: ledger) }
                }
            }
        }
        // Let a good number of writes be acknowledged, then kill while the workers are mid-stream.
        _ = await eventually(seconds: 60) { await ledger.count >= 24 }
        try await first.crash()
        workers.cancel()
        await workers.value
        let acknowledged = await ledger.products
        #expect(acknowledged.count >= 24)

        // The database file is sound after the crash.
        let connection = try SQLiteConnection(path: folder.url.appendingPathComponent(ProductStore.databaseFileName).path)
        var integrity: [String] = []
        try connection.query("PRAGMA integrity_check") { integrity.append($0.string(0)) }
        #expect(integrity == ["ok"])

        // Restart on the same folder: every acknowledged product is intact.
        let second = try await SandboxProcess.start(arguments)
        var referenced = Set<String>()
        for (id, expected) in acknowledged {
            let response = try await RawHTTPClient.request(port: second.port, method: "GET", path: "/api/products/\(id)")
            #expect(response.status == 200, "product \(id) lost")
            guard let detail = response.json else { continue }
            #expect(detail["name"] as? String == expected.name)
            #expect(detail["price"] as? Double == expected.price)
            let stock = detail["stock"] as? Int ?? -1
            #expect(stock == expected.stock || stock == expected.stockInFlight, "product \(id) stock \(stock)")
            let images = detail["images"] as? [[String: Any]] ?? []
            #expect(images.count == expected.images.count)
            for (image, bytes) in zip(images, expected.images) {
                let url = try #require(URL(string: image["url"] as? String ?? ""))
                referenced.insert(url.lastPathComponent)
                let served = try await RawHTTPClient.request(port: second.port, method: "GET", path: url.path)
                #expect(served.status == 200 && [UInt8](served.body) == bytes, "image of product \(id) differs")
            }
        }

        // It serves normally: a new product gets a fresh id, and the list counts every product.
        let multipart = Multipart.product(dialect: .v2a, secret: Self.vendor.secret, images: [SampleProducts.image(index: 1, imageIndex: 1)])
        let fresh = try await RawHTTPClient.request(port: second.port, method: "POST", path: "/api/products",
                                           headers: [("Content-Type", multipart.contentType), ("identifier", Self.vendor.identifier)],
                                           body: multipart.body)
        #expect(fresh.status == 200)
        let freshID = fresh.json?["id"] as? Int ?? 0
        #expect(freshID > acknowledged.keys.max() ?? 0)
        let list = try await RawHTTPClient.request(port: second.port, method: "GET", path: "/api/products?items_per_page=100")
        let total = list.json?["total_count"] as? Int ?? 0
        #expect(total >= acknowledged.count + 1)

        // No orphan files: every media file belongs to a stored product.
        let pages = (list.json?["pages"] as? [[String: Any]]) ?? []
        var allReferenced = Set<String>()
        for page in pages {
            let detail = try await RawHTTPClient.request(port: second.port, method: "GET", path: "/api/products/\(page["id"] as? Int ?? 0)")
            for image in (detail.json?["images"] as? [[String: Any]]) ?? [] {
                allReferenced.insert(URL(string: image["url"] as? String ?? "")?.lastPathComponent ?? "")
            }
        }
        #expect(referenced.isSubset(of: allReferenced))
        if total <= 100 {
            let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("media").path))
            #expect(files == allReferenced)
        }
        #expect(try await second.stop() == 0)   // SIGTERM: a clean exit
    }
}
