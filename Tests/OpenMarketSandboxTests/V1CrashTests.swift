import Foundation
import HTTPServer
import OpenMarketCore
import SQLiteStore
import Testing
@testable import OpenMarketSandbox
import TestSupport

/// Kill -9 a `--dialect v1` sandbox in the middle of concurrent registers, edits (with image
/// replacement) and deletes; after a restart on the same folder, everything it acknowledged is
/// there byte for byte, deleted items stay deleted, and no orphan file is left.
@Suite(.awaitsTeardown) struct V1CrashTests {
    struct Expected: Sendable {
        var title: String
        var images: [[UInt8]]
        var stock: Int
        /// An edit sent but not acknowledged: either outcome is allowed.
        var inFlight: (stock: Int, images: [[UInt8]])?
    }

    actor Ledger {
        var items: [Int: Expected] = [:]
        var deleted: Set<Int> = []
        var deleting: Set<Int> = []
        func acknowledge(_ id: Int, _ expected: Expected) { items[id] = expected }
        func sending(_ id: Int, stock: Int, images: [[UInt8]]) { items[id]?.inFlight = (stock, images) }
        func acknowledged(_ id: Int, stock: Int, images: [[UInt8]]) {
            items[id]?.stock = stock
            items[id]?.images = images
            items[id]?.inFlight = nil
        }
        func deleting(_ id: Int) { deleting.insert(id) }
        func deletedAcknowledged(_ id: Int) {
            deleting.remove(id)
            deleted.insert(id)
            items[id] = nil
        }
        var count: Int { items.count + deleted.count }
    }

    static func image(_ worker: Int, _ round: Int, _ index: Int) -> [UInt8] {
        SampleProducts.image(index: worker * 5 + round, imageIndex: index) + Secrets.randomBytes(48)
    }

    static func worker(_ number: Int, port: Int, ledger: Ledger) async {
        var round = 0
        while !Task.isCancelled {
            round += 1
            let title = "v1 w\(number) r\(round) 상품"
            let images = (0..<(1 + round % 2)).map { image(number, round, $0) }
            let form = V1APITests.form([("title", title), ("descriptions", "crash"), ("price", "\(100 + round)"),
                                        ("currency", "KRW"), ("stock", "1"), ("password", "pw\(number)")], images: images)
            guard let created = try? await RawHTTPClient.request(port: port, method: "POST", path: "/item",
                                                        headers: [("Content-Type", form.contentType)], body: form.body),
                  created.status == 200, let id = created.json?["id"] as? Int else { return }
            await ledger.acknowledge(id, Expected(title: title, images: images, stock: 1))

            let newImages = [image(number, round + 1000, 0)]
            let stock = round * 10
            await ledger.sending(id, stock: stock, images: newImages)
            let edit = V1APITests.form([("password", "pw\(number)"), ("stock", "\(stock)")], images: newImages)
            guard let edited = try? await RawHTTPClient.request(port: port, method: "PATCH", path: "/item/\(id)",
                                                       headers: [("Content-Type", edit.contentType)], body: edit.body),
                  edited.status == 200 else { return }
            await ledger.acknowledged(id, stock: stock, images: newImages)

            if round % 3 == 0 {
                await ledger.deleting(id)
                guard let gone = try? await RawHTTPClient.request(port: port, method: "DELETE", path: "/item/\(id)",
                                                         headers: [("Content-Type", "application/json")],
                                                         body: Data(#"{"password":"pw\#(number)"}"#.utf8)),
                      gone.status == 200 else { return }
                await ledger.deletedAcknowledged(id)
            }
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func acknowledgedV1WritesSurviveKillNine() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let arguments = ["--data", folder.url.path, "--dialect", "v1"]
        let first = try await SandboxProcess.start(arguments)
        let ledger = Ledger()
        let port = first.port
        let workers = Task {
            await withTaskGroup(of: Void.self) { group in
                for number in 0..<4 { group.addTask { await Self.worker(number, port: port, ledger: ledger) } }
            }
        }
        _ = await eventually(seconds: 60) { await ledger.count >= 20 }
        try await first.crash()
        workers.cancel()
        await workers.value
        let acknowledged = await ledger.items
        let deleted = await ledger.deleted
        let deleting = await ledger.deleting
        #expect(acknowledged.count + deleted.count >= 20)

        let connection = try SQLiteConnection(path: folder.url.appendingPathComponent(V1Store.databaseFileName).path)
        var integrity: [String] = []
        try connection.query("PRAGMA integrity_check") { integrity.append($0.string(0)) }
        #expect(integrity == ["ok"])

        let second = try await SandboxProcess.start(arguments)
        for (id, expected) in acknowledged {
            let response = try await RawHTTPClient.request(port: second.port, method: "GET", path: "/item/\(id)")
            if deleting.contains(id) && response.status == 404 { continue }   // a delete in flight may have committed
            #expect(response.status == 200, "item \(id) lost")
            guard let detail = try? OpenMarketJSON.decodeV1Detail(response.body) else { continue }
            #expect(detail.title == expected.title)
            let outcomes = [(expected.stock, expected.images)] + (expected.inFlight.map { [($0.stock, $0.images)] } ?? [])
            var served: [[UInt8]] = []
            for url in detail.images {
                served.append([UInt8](try await RawHTTPClient.request(port: second.port, method: "GET", path: URL(string: url)!.path).body))
            }
            #expect(outcomes.contains { $0.0 == detail.stock && $0.1 == served }, "item \(id): stock \(detail.stock)")
        }
        for id in deleted {
            #expect(try await RawHTTPClient.request(port: second.port, method: "GET", path: "/item/\(id)").status == 404)
        }
        // No orphan files: every file in the media folder belongs to a stored item.
        var referenced = Set<String>()
        var page = 1
        while true {
            let list = try OpenMarketJSON.decodeV1ListPage(try await RawHTTPClient.request(port: second.port, method: "GET", path: "/items/\(page)").body)
            if list.items.isEmpty { break }
            for item in list.items {
                for url in item.thumbnails { referenced.insert(V1MediaName.stored(String(url.split(separator: "/").last!)) ?? "?") }
            }
            page += 1
        }
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent(V1Store.mediaFolderName).path))
        #expect(files == referenced)
        #expect(try await second.stop() == 0)
    }
}
