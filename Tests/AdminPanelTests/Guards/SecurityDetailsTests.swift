import Foundation
import Testing
import TestSupport
import HTTPServer
import SQLiteStore
import OpenMarketCore
@testable import AdminPanel

/// The security details of round 3, each through the running panel.
@Suite(.awaitsTeardown) struct SecurityDetailsTests {
    static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) & 0o777
    }

    @Test(arguments: [Dialect.v2a, .v1])
    func dataIsPrivateAndEveryDatabaseFileIsTheOwnersAlone(dialect: Dialect) async throws {
        let harness = try await PanelHarness.start(.init(dialect: dialect))
        Teardown.add { await harness.stop() }
        // Something written, so every database has its -wal file.
        _ = try await harness.browser.get("/products")
        let data = harness.dataDirectory.path
        #expect(try Self.mode(data) == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: data).filter { $0.contains(".sqlite") }
        #expect(files.contains("panel.sqlite") && files.contains("openmarket.sqlite"), "\(files)")
        if dialect == .v1 { #expect(files.contains("openmarket-v1.sqlite"), "\(files)") }
        for file in files {
            let mode = try Self.mode(data + "/" + file)
            #expect(mode == 0o600, "\(file) is \(String(mode, radix: 8))")
        }
    }

    @Test func anExistingWorldReadableDatabaseIsMadePrivate() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loose-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("openmarket.sqlite").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644]))
        #expect(try Self.mode(path) == 0o644)
        let database = try WALDatabase(path: path, schema: "CREATE TABLE IF NOT EXISTS t (x INTEGER);", label: "test")
        #expect(try Self.mode(path) == 0o600)
        #expect(try Self.mode(path + "-wal") == 0o600)
        withExtendedLifetime(database) {}
    }

    /// `/healthz` asks the API at most once per 5 s, however many ask and whoever they are.
    @Test func healthAsksTheAPIAtMostOncePerFiveSeconds() async throws {
        final class Counter: @unchecked Sendable {
            private let lock = NSLock()
            private var count = 0
            func add() { lock.withLock { count += 1 } }
            var value: Int { lock.withLock { count } }
        }
        let asked = Counter()
        let api = try StubAPI { request in
            if request.path == "/healthChecker" {
                asked.add()
                return .text("\"OK\"")
            }
            return .json(Data(#"{"code":404,"message":"no"}"#.utf8), status: 404)
        }
        let harness = try await PanelHarness.start(.init(live: true, api: api.url, timeout: 10))
        Teardown.add { await harness.stop(); await api.stop() }
        await withTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { (try? await harness.newBrowser().get("/healthz").status) ?? 0 } }
            for await status in group { #expect(status == 200) }
        }
        for _ in 0..<5 {
            let answer = try await harness.browser.get("/healthz")
            #expect(answer.text.contains("\"api_reachable\":true"))
        }
        #expect(asked.value == 1)
        harness.clock.advance(4.9)
        _ = try await harness.browser.get("/healthz")
        #expect(asked.value == 1)
        harness.clock.advance(0.2)
        _ = try await harness.browser.get("/healthz")
        #expect(asked.value == 2)
    }

    /// Signed in, a form token is bound to the session: a valid signed-out pair (form key and
    /// token) planted in someone's browser does not carry a POST of theirs.
    @Test func aSignedOutFormTokenIsWorthNothingWithASession() async throws {
        let harness = try await PanelHarness.start(.init(signIn: true))
        Teardown.add { await harness.stop() }
        try await harness.setUpOwner()
        let attacker = harness.newBrowser()
        let login = try await attacker.get("/login")
        let attackerToken = try #require(login.inputValue("csrf_token"))
        let attackerKey = try #require(attacker.cookies["om_form"])

        let ownToken = try await harness.csrfToken(from: "/products/new")
        #expect(ownToken != attackerToken)
        let ownKey = try #require(harness.browser.cookies["om_form"])
        harness.browser.setCookie("om_form", attackerKey)
        let planted = try await harness.browser.post("/logout", form: [("csrf_token", attackerToken)])
        #expect(planted.status == 403)
        harness.browser.setCookie("om_form", ownKey)
        let own = try await harness.browser.post("/logout", form: [("csrf_token", ownToken)])
        #expect(own.status == 303)
    }
}
