import Foundation
import TestSupport
import Testing
@testable import AdminPanel

/// "Save as draft" replaces only drafts the panel issued: a made-up `draft_id` is a 404 that
/// stores nothing, so no id can slip a draft past the limit.
@Suite(.awaitsTeardown) struct DraftSavingTests {
    static func draftCount(_ harness: PanelHarness) async throws -> Int {
        try await harness.panel.app.stores.drafts.count()
    }

    @Test func aDraftIDThePanelDidNotIssueIsNotFound() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let token = try await harness.csrfToken(from: "/products/new")
        let first = try await harness.browser.postMultipart("/products", fields: [
            ("csrf_token", token), ("name", "Kept"), ("draft", "1")], files: [])
        #expect(first.status == 303)
        #expect(try await Self.draftCount(harness) == 1)
        for madeUp in ["999999", "0", "-1", "abc", "1 OR 1=1", "99999999999999999999"] {
            let refused = try await harness.browser.postMultipart("/products", fields: [
                ("csrf_token", token), ("name", "Sneaked in"), ("draft", "1"), ("draft_id", madeUp)], files: [])
            #expect(refused.status == 404, "\(madeUp)")
        }
        #expect(try await Self.draftCount(harness) == 1)
        let folder = harness.dataDirectory.appendingPathComponent("drafts")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).count == 1)
        // The issued id still replaces its draft.
        let replaced = try await harness.browser.postMultipart("/products", fields: [
            ("csrf_token", token), ("name", "Kept, renamed"), ("draft", "1"), ("draft_id", "1")], files: [])
        #expect(replaced.status == 303)
        #expect(try await Self.draftCount(harness) == 1)
        #expect(try await harness.browser.get("/drafts").text.contains("Kept, renamed"))
    }

    /// At the limit, neither a new draft nor a made-up id adds one.
    @Test func theLimitHoldsWhateverIDIsSent() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let store = harness.panel.app.stores.drafts
        for index in 0..<DraftStore.maxDrafts {
            _ = try await store.save(id: nil, person: "local", savedAt: Date(), name: "Draft \(index)", folder: "draft-\(index)")
        }
        let token = try await harness.csrfToken(from: "/products/new")
        for id in ["", "123456"] {
            let answer = try await harness.browser.postMultipart("/products", fields: [
                ("csrf_token", token), ("name", "One too many"), ("draft", "1"), ("draft_id", id)], files: [])
            #expect(answer.status == 422 || answer.status == 404, "\(id)")
        }
        #expect(try await Self.draftCount(harness) == DraftStore.maxDrafts)
        await #expect(throws: DraftStore.Failure.self) {
            _ = try await store.save(id: 777_777, person: "local", savedAt: Date(), name: "x", folder: "draft-x")
        }
    }
}
