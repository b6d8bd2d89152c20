import Foundation
import Testing
import TestSupport
import OpenMarketCore
@testable import AdminPanel

/// Product writes through the panel land in the activity log (DATA/panel.sqlite), edits field by field.
@Suite(.awaitsTeardown) struct ActivityRecordTests {
    @Test func registerEditDeleteAndRefusedDeleteAreRecorded() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let token = try await harness.csrfToken(from: "/products/new")
        let created = try await harness.browser.postMultipart("/products", fields: RegisterRouteTests.fields(token, name: "Logged mug"),
                                                              files: [.init(filename: "a.png", type: "image/png", data: TestImages.png())])
        #expect(created.status == 303)
        let id = try #require(created.header("Location").flatMap { Int($0.split(separator: "/").last ?? "") })

        let form = try await harness.browser.get("/products/\(id)/edit")
        let saved = try await harness.browser.post("/products/\(id)/edit", form: EditRouteTests.editFields(
            from: form, overriding: ["name": "Renamed mug", "price": "15000", "description": "A handmade ceramic mug, 350 ml."]))
        #expect(saved.status == 303)

        let deleteToken = try await harness.csrfToken(from: "/products/\(id)/delete")
        let refused = try await harness.browser.post("/products/\(id)/delete", form: [("csrf_token", deleteToken), ("password", "wrong-password")])
        #expect(refused.status == 422)
        let deleted = try await harness.browser.post("/products/\(id)/delete", form: [("csrf_token", deleteToken), ("password", harness.demoSecret)])
        #expect(deleted.status == 303)

        let (rows, _) = try await harness.panel.app.stores.activity.list(.init(productID: id), page: 1)
        #expect(rows.map(\.entry.action) == ["delete", "delete-refused", "edit", "register"])
        #expect(rows.allSatisfy { $0.entry.person == "local" && $0.entry.address == "127.0.0.1" })
        let edit = try #require(rows.first { $0.entry.action == "edit" })
        #expect(edit.entry.changes == [.init(field: "name", old: "Logged mug", new: "Renamed mug"),
                                       .init(field: "price", old: "12000", new: "15000")])
        // Nothing secret is stored: the vendor password typed (right or wrong) appears nowhere.
        let file = try Data(contentsOf: harness.dataDirectory.appendingPathComponent("panel.sqlite"))
            + ((try? Data(contentsOf: harness.dataDirectory.appendingPathComponent("panel.sqlite-wal"))) ?? Data())
        #expect(file.range(of: Data(harness.demoSecret.utf8)) == nil)
        #expect(file.range(of: Data("wrong-password".utf8)) == nil)
    }
}
