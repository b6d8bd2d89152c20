import Foundation
import Testing
import TestSupport
import OpenMarketCore
import OpenMarketSandbox
@testable import AdminPanel

/// Issue 24: the trash (keep-then-delete, restore), revert from the activity log, drafts.
@Suite(.awaitsTeardown) struct SafetyNetTests {
    // MARK: keep-then-delete, a fault at each step

    /// Records which steps ran, in order.
    final class Journal: @unchecked Sendable {
        private let lock = NSLock()
        private var steps: [String] = []
        func add(_ step: String) { lock.withLock { steps.append(step) } }
        var all: [String] { lock.withLock { steps } }
    }

    enum Step: String, CaseIterable { case read, image, write, record, delete }
    struct Injected: Error {}

    static let sample = ProductDetail(id: 7, vendorID: 1, name: "Kept", description: "Kept by a test.",
                                      thumbnail: "http://127.0.0.1:1/t/2.png", currency: .KRW, price: 12000, bargainPrice: 12000,
                                      discountedPrice: 0, stock: 3, createdAt: Date(), issuedAt: Date(),
                                      images: [ProductImage(id: 1, url: "http://127.0.0.1:1/i/1.png", thumbnailURL: "http://127.0.0.1:1/t/1.png"),
                                               ProductImage(id: 2, url: "http://127.0.0.1:1/i/2.png", thumbnailURL: "http://127.0.0.1:1/t/2.png")])

    static func keeper(failing: Step?, deleteError: OpenMarketError? = nil, journal: Journal) -> KeepThenDelete {
        KeepThenDelete(
            read: { _ throws(OpenMarketError) in
                journal.add("read")
                if failing == .read { throw .timeout }
                return sample
            },
            fetchImage: { image in
                journal.add("image \(image.id)")
                return failing == .image ? nil : TestImages.png(seed: UInt8(image.id))
            },
            writeFiles: { product, images, _ in
                journal.add("write \(product.images.count) \(images.count)")
                if failing == .write { throw DurableFolder.Failure(operation: "write", code: ENOSPC) }
            },
            record: { _ in
                journal.add("record")
                if failing == .record { throw Injected() }
            },
            discard: { _ in journal.add("discard") },
            now: { Date() })
    }

    @Test func keepsBeforeDeletingAndDeletesNothingWhenAnyKeepingStepFails() async throws {
        // No fault: every step in order, the API asked last; the thumbnail's image is kept first.
        let journal = Journal()
        let deleted = try await Self.keeper(failing: nil, journal: journal).run(7, person: "ann") { () throws(OpenMarketError) in
            journal.add("delete")
            return Self.sample
        }
        #expect(deleted.id == 7)
        #expect(journal.all == ["read", "image 2", "image 1", "write 2 2", "record", "delete"])

        for step in [Step.read, .image, .write, .record] {
            let journal = Journal()
            await #expect(throws: (any Error).self, "\(step)") {
                _ = try await Self.keeper(failing: step, journal: journal).run(7, person: "ann") { () throws(OpenMarketError) in
                    journal.add("delete")
                    return Self.sample
                }
            }
            #expect(!journal.all.contains("delete"), "a fault at \(step) must delete nothing: \(journal.all)")
            // A row that could not be recorded leaves no files behind.
            if step == .record { #expect(journal.all.last == "discard") }
        }

        // The failures say why: an image, or a full disk.
        await #expect(throws: KeepThenDelete.KeepFailure.imageUnreadable("2.png")) {
            _ = try await Self.keeper(failing: .image, journal: Journal()).keep(7, person: "ann")
        }
        await #expect(throws: KeepThenDelete.KeepFailure.diskFull) {
            _ = try await Self.keeper(failing: .write, journal: Journal()).keep(7, person: "ann")
        }
    }

    @Test func aRefusedDeleteDiscardsTheCopyAndAnAmbiguousOneChecks() async throws {
        // Wrong password: the product is still there, so its copy goes.
        let refused = Journal()
        await #expect(throws: OpenMarketError.self) {
            _ = try await Self.keeper(failing: nil, journal: refused).run(7, person: "ann") { () throws(OpenMarketError) in
                throw .unauthorized(message: "wrong")
            }
        }
        #expect(refused.all.last == "discard")
        // A timeout: the API is asked whether the product still exists (here it does: discarded).
        let timedOut = Journal()
        await #expect(throws: OpenMarketError.self) {
            _ = try await Self.keeper(failing: nil, journal: timedOut).run(7, person: "ann") { () throws(OpenMarketError) in
                throw .timeout
            }
        }
        #expect(timedOut.all.suffix(2) == ["read", "discard"])
    }

    @Test func durableFolderWritesEveryFileOrNone() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("durable-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        try DurableFolder.commit([("a.txt", Data("one".utf8)), ("b.png", TestImages.png())], in: parent, as: "item")
        #expect(FileManager.default.contents(atPath: parent.appendingPathComponent("item/a.txt").path) == Data("one".utf8))
        #expect(FileManager.default.contents(atPath: parent.appendingPathComponent("item/b.png").path) == TestImages.png())
        // A file that cannot be written (a name inside a missing folder): nothing is left, not even the incoming folder.
        #expect(throws: DurableFolder.Failure.self) {
            try DurableFolder.commit([("ok.txt", Data("x".utf8)), ("missing/c.txt", Data("y".utf8))], in: parent, as: "broken")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: parent.path)
        #expect(names == ["item"])
    }

    @Test func revertPlanSetsBackOnlyFieldsStillHoldingTheNewValue() {
        var now = ProductFormValues()
        now.name = "Shirt"
        now.price = "9,000"      // the row set 9000: same value, reverted
        now.stock = "4"          // the row set 5, someone set 4 since: a conflict
        now.discountedPrice = "0"
        let plan = RevertPlan(changes: [.init(field: "price", old: "12000", new: "9000"),
                                        .init(field: "stock", old: "3", new: "5"),
                                        .init(field: "images", old: "1", new: "2"),
                                        .init(field: "discounted_price", old: "0", new: "500")],
                              current: now)
        #expect(plan.reverted == [.price])
        #expect(plan.values.price == "12000")
        #expect(plan.values.stock == "4")
        #expect(plan.conflicts.map(\.field) == [.stock])
        #expect(plan.alreadyBack == [.discountedPrice])   // someone set it back already: nothing to send
        #expect(plan.skipped == ["images"])
    }

    // MARK: end to end on the sandbox

    static func imageBytes(_ harness: PanelHarness, _ product: ProductDetail) async throws -> [Data] {
        var out: [Data] = []
        for image in product.images {
            let answer = try await harness.transport.send(TransportRequest(method: "GET", url: try #require(URL(string: image.url)),
                                                                           timeout: 30))
            #expect(answer.status == 200)
            out.append(answer.body)
        }
        return out
    }

    static func delete(_ harness: PanelHarness, _ id: Int, browser: TestBrowser? = nil) async throws -> RawResponse {
        let browser = browser ?? harness.browser
        let prompt = try await browser.get("/products/\(id)/delete")
        let token = try #require(prompt.inputValue("csrf_token"))
        return try await browser.post("/products/\(id)/delete", form: [("csrf_token", token), ("password", harness.demoSecret)])
    }

    @Test func deletedProductSurvivesARestartAndComesBackWithItsImages() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct(name: "Trash me", images: 2, stock: 7)
        let before = try await Self.imageBytes(harness, product)

        let deleted = try await Self.delete(harness, product.id)
        #expect(deleted.status == 303)
        await #expect(throws: OpenMarketError.self) { _ = try await harness.api.product(id: product.id) }
        let trash = try await harness.browser.get("/trash")
        #expect(trash.status == 200)
        #expect(trash.text.contains("data-trash-item=\"\(product.id)\""))
        #expect(trash.text.contains("Trash me"))
        #expect(trash.text.contains("Deleted by local"))

        // A restart on the same DATA (a new panel; the old one stops without its shutdown chores).
        let (second, browser) = try harness.anotherPanel()
        Teardown.add { await second.shutdown() }
        let page = try await browser.get("/trash")
        #expect(page.text.contains("data-trash-item=\"\(product.id)\""))
        let token = try #require(page.inputValue("csrf_token"))
        let restored = try await browser.post("/trash/\(product.id)/restore", form: [("csrf_token", token)])
        #expect(restored.status == 303)
        let location = try #require(restored.header("Location"))
        let newID = try #require(Int(location.dropFirst("/products/".count)))
        #expect(newID != product.id)
        let again = try await harness.api.product(id: newID)
        #expect(again.name == "Trash me" && again.stock == 7 && again.price == 12000)
        #expect(try await Self.imageBytes(harness, again) == before)
        // Gone from the trash; the activity log links both ids.
        #expect(!(try await browser.get("/trash")).text.contains("data-trash-item=\"\(product.id)\""))
        let log = try await browser.get("/activity?action=restore")
        #expect(log.text.contains("data-action=\"restore\""))
        #expect(log.text.contains("<del>\(product.id)</del>") && log.text.contains("<ins>\(newID)</ins>"))
    }

    @Test func restoringTwiceAtOnceMakesOneProductAndMissingImagesRestoreNothing() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct(name: "Double click", images: 1)
        #expect(try await Self.delete(harness, product.id).status == 303)
        let token = try await harness.csrfToken(from: "/trash")
        async let first = harness.browser.post("/trash/\(product.id)/restore", form: [("csrf_token", token)])
        async let second = harness.browser.post("/trash/\(product.id)/restore", form: [("csrf_token", token)])
        let answers = try await [first, second]
        #expect(answers.map(\.status) == [303, 303])
        #expect(answers[0].header("Location") == answers[1].header("Location"))
        let all = try await harness.api.listProducts(page: 1, itemsPerPage: 50, search: "Double click")
        #expect(all.pages.filter { $0.name == "Double click" }.count == 1)

        // An item whose image file went missing: a clear error, it stays, nothing registered.
        let other = try await harness.makeProduct(name: "Lost photo", images: 1)
        #expect(try await Self.delete(harness, other.id).status == 303)
        let trashFolder = harness.dataDirectory.appendingPathComponent("trash")
        let folder = try #require(try FileManager.default.contentsOfDirectory(atPath: trashFolder.path).first { $0.hasPrefix("\(other.id)-") })
        let item = trashFolder.appendingPathComponent(folder)
        for name in try FileManager.default.contentsOfDirectory(atPath: item.path) where name.hasPrefix("image-") {
            try FileManager.default.removeItem(at: item.appendingPathComponent(name))
        }
        let failed = try await harness.browser.post("/trash/\(other.id)/restore", form: [("csrf_token", token)])
        #expect(failed.status == 409)
        #expect(failed.text.contains("is missing, so nothing was registered"))
        #expect((try await harness.browser.get("/trash")).text.contains("data-trash-item=\"\(other.id)\""))
        let lost = try await harness.api.listProducts(page: 1, itemsPerPage: 50, search: "Lost photo")
        #expect(lost.pages.isEmpty)
    }

    @Test func aWrongPasswordKeepsNothingInTheTrashAndOldItemsAreSwept() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct(name: "Still here")
        let token = try await harness.csrfToken(from: "/products/\(product.id)/delete")
        let wrong = try await harness.browser.post("/products/\(product.id)/delete",
                                                   form: [("csrf_token", token), ("password", "not-the-password-42")])
        #expect(wrong.status == 422)
        #expect(!(try await harness.browser.get("/trash")).text.contains("data-trash-item"))

        let gone = try await harness.makeProduct(name: "Swept")
        #expect(try await Self.delete(harness, gone.id).status == 303)
        #expect((try await harness.browser.get("/trash")).text.contains("data-trash-item=\"\(gone.id)\""))
        harness.clock.advance(31 * 86_400)
        await harness.panel.app.controllers.trashKeeper.sweepTrash()
        #expect(!(try await harness.browser.get("/trash")).text.contains("data-trash-item"))
        let left = try FileManager.default.contentsOfDirectory(atPath: harness.dataDirectory.appendingPathComponent("trash").path)
        #expect(left.isEmpty, "files left: \(left)")
    }

    static func revertForms(_ page: RawResponse) -> [String] {
        page.text.components(separatedBy: "data-revert").dropLast().compactMap { chunk in
            guard let range = chunk.range(of: "action=\"", options: .backwards) else { return nil }
            return String(chunk[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    @Test func revertsAnEditAndLeavesAFieldChangedSinceAlone() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct(name: "Revert me", stock: 3)
        let form = try await harness.browser.get("/products/\(product.id)/edit")
        let saved = try await harness.browser.post("/products/\(product.id)/edit", form: EditRouteTests.editFields(
            from: form, overriding: ["price": "9000", "stock": "5"]))
        #expect(saved.status == 303)

        var log = try await harness.browser.get("/activity?action=edit")
        let forms = Self.revertForms(log)
        #expect(forms.count == 1)
        let action = try #require(forms.first)
        #expect(action.hasPrefix("/activity/") && action.hasSuffix("/revert"))
        let token = try #require(log.inputValue("csrf_token"))

        // A colleague changes the stock afterwards: the revert leaves it and says so.
        _ = try await harness.api.update(id: product.id, changes: ProductChanges(stock: 4))
        let reverted = try await harness.browser.post(action, form: [("csrf_token", token)])
        #expect(reverted.status == 200)
        #expect(reverted.text.contains("data-conflict"))
        #expect(reverted.text.contains("<th scope=\"row\">Stock</th>"))
        let now = try await harness.api.product(id: product.id)
        #expect(now.price == 12000)
        #expect(now.stock == 4)
        log = try await harness.browser.get("/activity?action=revert")
        #expect(log.text.contains("data-action=\"revert\""))

        // Reverting again changes nothing more (the price already holds the old value).
        let twice = try await harness.browser.post(action, form: [("csrf_token", token)])
        #expect(twice.status == 409)
        #expect(try await harness.api.product(id: product.id).price == 12000)
    }

    @Test func revertsAPlainEditStraightToTheProduct() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct(name: "Plain revert")
        let form = try await harness.browser.get("/products/\(product.id)/edit")
        _ = try await harness.browser.post("/products/\(product.id)/edit", form: EditRouteTests.editFields(
            from: form, overriding: ["name": "Renamed"]))
        let log = try await harness.browser.get("/activity")
        let action = try #require(Self.revertForms(log).first)
        let reverted = try await harness.browser.post(action, form: [("csrf_token", try #require(log.inputValue("csrf_token")))])
        #expect(reverted.status == 303)
        #expect(reverted.header("Location") == "/products/\(product.id)")
        #expect(try await harness.api.product(id: product.id).name == "Plain revert")
        // Without the form token: refused.
        let forged = try await harness.browser.post(action, form: [("csrf_token", "nope")])
        #expect(forged.status == 403)
    }

    @Test func revertsAWholeBulkRun() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        var products: [ProductDetail] = []
        for n in 0..<3 { products.append(try await harness.makeProduct(name: "Run \(n)", stock: 3 + n)) }
        _ = try await harness.browser.get("/products/refresh")   // the catalog copy knows them
        let token = try await harness.csrfToken(from: "/products")
        var form: [(String, String)] = [("csrf_token", token), ("action", "set-stock"), ("stock", "0")]
        for product in products { form.append(("ids", String(product.id))) }
        let result = try await harness.browser.post("/products/bulk", form: form)
        #expect(result.status == 200)
        for product in products { #expect(try await harness.api.product(id: product.id).stock == 0) }

        let log = try await harness.browser.get("/activity")
        let marker = "data-bulk-run=\""
        let runStart = try #require(log.text.range(of: marker))
        let run = String(log.text[runStart.upperBound...].prefix { $0 != "\"" })
        #expect(!run.isEmpty)
        #expect(log.count(of: marker) == 1)
        #expect(log.text.contains("action=\"/activity/bulk/\(run)/revert\""))
        let reverted = try await harness.browser.post("/activity/bulk/\(run)/revert", form: [("csrf_token", token)])
        #expect(reverted.status == 200)
        #expect(reverted.count(of: "data-outcome=\"done\"") == 3)
        for (n, product) in products.enumerated() {
            #expect(try await harness.api.product(id: product.id).stock == 3 + n)
        }
        #expect((try await harness.browser.post("/activity/bulk/nope!/revert", form: [("csrf_token", token)])).status == 404)
    }

    @Test func aDraftKeepsFieldsAndImagesAndBecomesAProduct() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let token = try await harness.csrfToken(from: "/products/new")
        let page = try await harness.browser.get("/products/new")
        #expect(page.text.contains("name=\"draft\""))
        let image = TestImages.png(seed: 9)
        let saved = try await harness.browser.postMultipart("/products", fields: [
            ("csrf_token", token), ("name", "Half done"), ("description", ""), ("price", ""), ("currency", "KRW"),
            ("stock", ""), ("draft", "1")], files: [.init(filename: "front.png", type: "image/png", data: image)])
        #expect(saved.status == 303)
        #expect(saved.header("Location") == "/drafts")
        let drafts = try await harness.browser.get("/drafts")
        let marker = "data-draft=\""
        let start = try #require(drafts.text.range(of: marker))
        let id = String(drafts.text[start.upperBound...].prefix { $0 != "\"" })
        #expect(drafts.text.contains("Half done"))
        #expect(drafts.text.contains("Saved by local"))
        let all = try await harness.api.listProducts(page: 1, itemsPerPage: 50, search: "Half done")
        #expect(all.pages.isEmpty)   // nothing sent to the API

        // The staged-upload sweeper does not touch drafts.
        harness.clock.advance(2 * 3600)
        await harness.panel.app.uploads.staging.purgeExpired()

        let opened = try await harness.browser.get("/drafts/\(id)")
        #expect(opened.status == 200)
        #expect(opened.inputValue("name") == "Half done")
        #expect(opened.inputValue("draft_id") == id)
        let staged = try #require(opened.inputValue("staged_token"))
        #expect(opened.text.contains("front.png"))
        let preview = try await harness.browser.get("/uploads/\(staged)/1")
        #expect(preview.status == 200)
        #expect(preview.body == image)

        let registered = try await harness.browser.postMultipart("/products", fields: [
            ("csrf_token", token), ("name", "Half done"), ("description", "Finished later from a draft."), ("price", "15000"),
            ("currency", "KRW"), ("stock", "2"), ("staged_token", staged), ("draft_id", id)], files: [])
        #expect(registered.status == 303)
        let location = try #require(registered.header("Location"))
        let product = try await harness.api.product(id: try #require(Int(location.dropFirst("/products/".count))))
        #expect(try await Self.imageBytes(harness, product) == [image])
        #expect(!(try await harness.browser.get("/drafts")).text.contains("data-draft="))
        #expect((try await harness.browser.get("/drafts/\(id)")).status == 404)
    }

    @Test func aDraftCanBeDiscardedAndViewersSeeNoWriteControls() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let token = try await harness.csrfToken(from: "/products/new")
        _ = try await harness.browser.postMultipart("/products", fields: [
            ("csrf_token", token), ("name", "Throw away"), ("draft", "1")], files: [])
        let drafts = try await harness.browser.get("/drafts")
        #expect(drafts.text.contains("action=\"/drafts/1/delete\""))
        let discarded = try await harness.browser.post("/drafts/1/delete", form: [("csrf_token", token)])
        #expect(discarded.status == 303)
        #expect(!(try await harness.browser.get("/drafts")).text.contains("data-draft="))
        let folder = harness.dataDirectory.appendingPathComponent("drafts")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).isEmpty)
    }

    @Test func viewersSeeTrashAndDraftsButNoWriteControls() async throws {
        let harness = try await PanelHarness.start(.init(signIn: true))
        Teardown.add { await harness.stop() }
        try await harness.setUpOwner()
        let product = try await harness.makeProduct(name: "Seen by a viewer")
        #expect(try await Self.delete(harness, product.id).status == 303)
        let token = try await harness.csrfToken(from: "/products/new")
        _ = try await harness.browser.postMultipart("/products", fields: [("csrf_token", token), ("name", "Team draft"), ("draft", "1")],
                                                    files: [])
        let viewerLink = try await harness.invite("Jun", role: "viewer")
        let viewer = harness.newBrowser()
        try await harness.accept(viewerLink, password: "jun-password-1", in: viewer)

        let trash = try await viewer.get("/trash")
        #expect(trash.status == 200)
        #expect(trash.text.contains("data-trash-item=\"\(product.id)\""))
        #expect(trash.text.contains("Deleted by owner"))
        #expect(!trash.text.contains("/restore"))
        let drafts = try await viewer.get("/drafts")
        #expect(drafts.text.contains("data-draft=\"1\""))
        #expect(drafts.text.contains("Saved by owner"))
        #expect(!drafts.text.contains("/drafts/1/delete") && !drafts.text.contains("href=\"/drafts/1\""))
        #expect((try await viewer.get("/drafts/1")).status == 403)
        let viewerToken = try #require(trash.inputValue("csrf_token"))
        #expect((try await viewer.post("/trash/\(product.id)/restore", form: [("csrf_token", viewerToken)])).status == 403)
        #expect((try await viewer.post("/drafts/1/delete", form: [("csrf_token", viewerToken)])).status == 403)
        let log = try await viewer.get("/activity")
        #expect(!log.text.contains("data-revert"))
    }

    @Test func v1RestoreAndRevertAskForTheProductPassword() async throws {
        let harness = try await V1PanelTests.start()
        let id = try V1PanelTests.registeredID(try await V1PanelTests.register(harness, name: "Old lamp"))
        let original = try await Self.imageBytes(harness, try await harness.api.product(id: id))

        // Revert of a v1 edit: the form asks for the product password; a wrong one changes nothing.
        let form = try await harness.browser.get("/products/\(id)/edit")
        let saved = try await harness.browser.postMultipart("/products/\(id)/edit", fields: V1PanelTests.editFields(
            form, ["price": "17000", "password": V1PanelTests.password]), files: [])
        #expect(saved.status == 303)
        let log = try await harness.browser.get("/activity?action=edit")
        #expect(log.text.contains("name=\"password\""))
        let action = try #require(Self.revertForms(log).first)
        let token = try #require(log.inputValue("csrf_token"))
        let wrong = try await harness.browser.post(action, form: [("csrf_token", token), ("password", "not-it")])
        #expect(wrong.status == 422)
        #expect(wrong.text.contains("the product password is wrong"))
        #expect(try await harness.api.product(id: id).price == 17000)
        let right = try await harness.browser.post(action, form: [("csrf_token", token), ("password", V1PanelTests.password)])
        #expect(right.status == 303)
        #expect(try await harness.api.product(id: id).price == 15000)

        // Delete, then restore with a new password (none: refused, it stays).
        let prompt = try await harness.browser.get("/products/\(id)/delete")
        let deleted = try await harness.browser.post("/products/\(id)/delete", form: [
            ("csrf_token", try #require(prompt.inputValue("csrf_token"))), ("password", V1PanelTests.password)])
        #expect(deleted.status == 303)
        let trash = try await harness.browser.get("/trash")
        #expect(trash.text.contains("data-trash-item=\"\(id)\""))
        #expect(trash.text.contains("autocomplete=\"new-password\""))
        let noPassword = try await harness.browser.post("/trash/\(id)/restore", form: [("csrf_token", token)])
        #expect(noPassword.status == 422)
        let restored = try await harness.browser.post("/trash/\(id)/restore", form: [("csrf_token", token), ("password", "new-pass-1")])
        #expect(restored.status == 303)
        let newID = try V1PanelTests.registeredID(restored)
        let again = try await harness.api.product(id: newID)
        #expect(again.name == "Old lamp" && again.price == 15000)
        #expect(try await Self.imageBytes(harness, again) == original)
        _ = try await harness.api.v1Delete(id: newID, password: "new-pass-1")
    }

    @Test func bulkDeleteKeepsEveryProductInTheTrash() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        var products: [ProductDetail] = []
        for n in 0..<3 { products.append(try await harness.makeProduct(name: "Bulk gone \(n)", images: 1)) }
        _ = try await harness.browser.get("/products/refresh")
        let token = try await harness.csrfToken(from: "/products")
        var form: [(String, String)] = [("csrf_token", token), ("action", "delete"), ("password", harness.demoSecret)]
        for product in products { form.append(("ids", String(product.id))) }
        let result = try await harness.browser.post("/products/bulk", form: form)
        #expect(result.status == 200)
        let trash = try await harness.browser.get("/trash")
        for product in products {
            #expect(trash.text.contains("data-trash-item=\"\(product.id)\""))
            await #expect(throws: OpenMarketError.self) { _ = try await harness.api.product(id: product.id) }
        }
    }
}
