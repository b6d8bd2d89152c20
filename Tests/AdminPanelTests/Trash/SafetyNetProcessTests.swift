import Foundation
import Testing
import OpenMarketCore
import TestSupport
@testable import AdminPanel
#if canImport(Glibc)
import Glibc
#endif

/// Issue 24 against the real executable: a deleted product's copy in the trash survives `kill -9`.
@Suite(.awaitsTeardown) struct SafetyNetProcessTests {
    static func sandboxAPI(_ lines: String) throws -> OpenMarketClient {
        let pattern = #"Sandbox API:\s+(http://127\.0\.0\.1:\d+)"#
        let match = try #require(lines.range(of: pattern, options: .regularExpression))
        let url = try #require(URL(string: String(lines[match].split(separator: " ").last ?? "")))
        return OpenMarketClient(configuration: ClientConfiguration(baseURL: url, dialect: .v2a, identifier: "reader",
                                                                   secret: "reader", timeout: 30),
                                transport: PooledTransport(maxConnectionsPerHost: 4))
    }

    static func images(_ product: ProductDetail) async throws -> [Data] {
        let transport = PooledTransport(maxConnectionsPerHost: 4)
        var out: [Data] = []
        for image in product.images {
            out.append(try await transport.send(TransportRequest(method: "GET", url: try #require(URL(string: image.url)),
                                                                 timeout: 30)).body)
        }
        return out
    }

    @Test func trashSurvivesKill9AndRestoresByteEqualImages() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("safety-exe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try await offPool { try ExecutableTests.start(data: data) }
        let secret = String(try #require(first.lines.split(separator: "\n").first { $0.contains("Its password") }?
            .split(separator: " ").last))
        let browser = TestBrowser(port: first.port)
        let token = try #require(try await browser.get("/products/new").inputValue("csrf_token"))
        let registered = try await browser.postMultipart("/products", fields: [
            ("csrf_token", token), ("name", "Killed kettle"), ("description", "Survives a kill -9 in the trash."),
            ("price", "21000"), ("currency", "KRW"), ("stock", "2")],
            files: [.init(filename: "a.png", type: "image/png", data: TestImages.png(seed: 21)),
                    .init(filename: "b.png", type: "image/png", data: TestImages.png(seed: 22))])
        #expect(registered.status == 303)
        let location = try #require(registered.header("Location"))
        let id = try #require(Int(location.dropFirst("/products/".count)))
        let before = try await Self.images(try await Self.sandboxAPI(first.lines).product(id: id))
        #expect(before.count == 2)
        let deleted = try await browser.post("/products/\(id)/delete", form: [("csrf_token", token), ("password", secret)])
        #expect(deleted.status == 303)

        first.child.signal(SIGKILL)
        let killed = try await offPool { first.child.wait(seconds: 30) }
        #expect(killed != nil)

        let second = try await offPool { try ExecutableTests.start(data: data) }
        let again = TestBrowser(port: second.port)
        let trash = try await again.get("/trash")
        #expect(trash.text.contains("data-trash-item=\"\(id)\""))
        let restoreToken = try #require(trash.inputValue("csrf_token"))
        let restored = try await again.post("/trash/\(id)/restore", form: [("csrf_token", restoreToken)])
        #expect(restored.status == 303)
        let newLocation = try #require(restored.header("Location"))
        let newID = try #require(Int(newLocation.dropFirst("/products/".count)))
        let product = try await Self.sandboxAPI(second.lines).product(id: newID)
        #expect(product.name == "Killed kettle" && product.price == 21000 && product.stock == 2)
        #expect(try await Self.images(product) == before)
        #expect(try await ExecutableTests.stop(second.child) == 0)
    }
}
