import Foundation
import Testing
import TestSupport
import OpenMarketCore
@testable import AdminPanel

/// `GET /events`: every product change through the panel is one event with the right fields,
/// changes found by the sync too; replay, reset, the end of a session, and nothing secret.
@Suite(.awaitsTeardown) struct LiveEventsTests {
    /// The panel's product events so far (the replay ring).
    private static func published(_ harness: PanelHarness) -> Int { harness.panel.app.live.storedEventCount }

    private static func expectEvent(_ event: LiveEventReader.Event, id: Int?, action: String, by: String? = "local",
                                    deleted: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
        let json = event.json
        #expect(event.name == "product", sourceLocation: sourceLocation)
        #expect(event.id.flatMap(Int.init) != nil, sourceLocation: sourceLocation)
        if let id { #expect(json["id"] as? Int == id, sourceLocation: sourceLocation) }
        #expect(json["action"] as? String == action, sourceLocation: sourceLocation)
        if let by { #expect(json["by"] as? String == by, sourceLocation: sourceLocation) } else {
            #expect(json["by"] is NSNull, sourceLocation: sourceLocation)
        }
        #expect((json["at"] as? String).flatMap { try? Date($0, strategy: .iso8601) } != nil, sourceLocation: sourceLocation)
        if deleted {
            #expect(json["product"] is NSNull, sourceLocation: sourceLocation)
        } else {
            let product = json["product"] as? [String: Any]
            #expect(product?["id"] as? Int == json["id"] as? Int, sourceLocation: sourceLocation)
            #expect(product?["name"] is String && product?["price"] is Double && product?["stock"] is Int,
                    sourceLocation: sourceLocation)
        }
    }

    @Test func eachKindOfChangeSendsExactlyOneEvent() async throws {
        let harness = try await PanelHarness.start(.init(live: true))
        Teardown.add { await harness.stop() }
        let first = try await harness.makeProduct(name: "Live mug", stock: 3)
        let second = try await harness.makeProduct(name: "Live cup", stock: 4)
        _ = try await harness.browser.get("/products/refresh")
        let stream = try await LiveEventReader.open(harness.browser)
        #expect(stream.head.hasPrefix("HTTP/1.1 200"))
        #expect(stream.head.contains("Content-Type: text/event-stream"))

        // Register.
        let token = try await harness.csrfToken(from: "/products/new")
        let created = try await harness.browser.postMultipart("/products", fields: RegisterRouteTests.fields(token, name: "Live plate"),
                                                              files: [.init(filename: "a.png", type: "image/png", data: TestImages.png())])
        #expect(created.status == 303)
        let newID = try #require(created.header("Location").flatMap { Int($0.split(separator: "/").last ?? "") })
        var event = try await stream.next()
        Self.expectEvent(event, id: newID, action: "register")
        #expect((event.json["product"] as? [String: Any])?["name"] as? String == "Live plate")

        // Edit.
        let form = try await harness.browser.get("/products/\(first.id)/edit")
        let saved = try await harness.browser.post("/products/\(first.id)/edit", form: EditRouteTests.editFields(
            from: form, overriding: ["name": "Live mug, blue", "stock": "0"]))
        #expect(saved.status == 303)
        event = try await stream.next()
        Self.expectEvent(event, id: first.id, action: "edit")
        let edited = try #require(event.json["product"] as? [String: Any])
        #expect(edited["name"] as? String == "Live mug, blue" && edited["sold_out"] as? Bool == true)
        let display = try #require((edited["display"] as? [String: Any])?["ko"] as? [String: Any])
        #expect(display["price"] as? String == "12,000원" || (display["price"] as? String)?.contains("12,000") == true)

        // Bulk: one event per product changed, none for a refused one.
        let list = try await harness.browser.get("/products")
        let bulkToken = try #require(list.inputValue("csrf_token"))
        let bulk = try await harness.browser.post("/products/bulk", form: [
            ("csrf_token", bulkToken), ("action", "set-stock"), ("stock", "9"),
            ("ids", String(first.id)), ("ids", String(second.id)), ("ids", "999999")])
        #expect(bulk.status == 200)
        let bulkEvents = try await stream.products(2)
        for event in bulkEvents { Self.expectEvent(event, id: nil, action: "bulk") }
        #expect(Set(bulkEvents.compactMap { $0.json["id"] as? Int }) == [first.id, second.id])

        // Revert the edit (the stock the bulk set is left alone; the name goes back).
        let log = try await harness.browser.get("/activity?action=edit")
        let revert = try #require(SafetyNetTests.revertForms(log).first)
        let reverted = try await harness.browser.post(revert, form: [("csrf_token", try #require(log.inputValue("csrf_token")))])
        #expect(reverted.status == 200 || reverted.status == 303)
        event = try await stream.next()
        Self.expectEvent(event, id: first.id, action: "revert")

        // Delete, then restore from the trash.
        #expect(try await SafetyNetTests.delete(harness, second.id).status == 303)
        event = try await stream.next()
        Self.expectEvent(event, id: second.id, action: "delete", deleted: true)
        let trashToken = try await harness.csrfToken(from: "/trash")
        let restored = try await harness.browser.post("/trash/\(second.id)/restore", form: [("csrf_token", trashToken)])
        #expect(restored.status == 303)
        let restoredID = try #require(restored.header("Location").flatMap { Int($0.split(separator: "/").last ?? "") })
        event = try await stream.next()
        Self.expectEvent(event, id: restoredID, action: "restore")

        // Exactly one event each: nothing else was published.
        #expect(Self.published(harness) == 7)
        // Ids increase.
        #expect(Int(event.id ?? "") ?? 0 > Int(bulkEvents[0].id ?? "") ?? .max)
    }

    @Test func duplicateImportAndSalesSendOneEventEach() async throws {
        let harness = try await PanelHarness.start(.init(live: true))
        Teardown.add { await harness.stop() }
        let original = try await harness.makeProduct(name: "Live original", stock: 3)
        _ = try await harness.browser.get("/products/refresh")
        let stream = try await LiveEventReader.open(harness.browser)

        // Duplicate: the prefilled register form, saved.
        let page = try await harness.browser.get("/products/\(original.id)/duplicate")
        let created = try await harness.browser.postMultipart("/products", fields: [
            ("csrf_token", try #require(page.inputValue("csrf_token"))), ("staged_token", try #require(page.inputValue("staged_token"))),
            ("name", "Live original (copy)"), ("description", "A product made by a test."), ("price", "12000"),
            ("currency", "KRW"), ("discounted_price", "0"), ("stock", "3")], files: [])
        #expect(created.status == 303)
        let copyID = try #require(created.header("Location").flatMap { Int($0.split(separator: "/").last ?? "") })
        Self.expectEvent(try await stream.next(), id: copyID, action: "register")

        // Import: one updated row.
        let csv = "id,name,description,price,currency,stock,images\n\(original.id),,,\"13,500\",KRW,9,\n"
        let preview = try await ImportRouteTests.preview(harness, csv: Data(csv.utf8))
        #expect(preview.text.contains("data-outcome=\"update\""))
        _ = try await ImportRouteTests.apply(harness, preview)
        var event = try await stream.next()
        Self.expectEvent(event, id: original.id, action: "import")
        #expect((event.json["product"] as? [String: Any])?["price"] as? Double == 13_500)

        // A sale starts, then is cancelled (which ends it at once).
        #expect(try await SalesRouteTests.schedule(harness, product: original.id, discount: "1000", from: 60, to: 600).status == 303)
        await SalesRouteTests.advance(harness, 61)
        event = try await stream.next()
        Self.expectEvent(event, id: original.id, action: "sale-start")
        #expect((event.json["product"] as? [String: Any])?["discounted_price"] as? Double == 1_000)
        let sale = try #require(try await harness.panel.app.stores.sales.list(.init()).first)
        let token = try await harness.csrfToken(from: "/sales")
        #expect(try await harness.browser.post("/sales/\(sale.id)/cancel", form: [("csrf_token", token)]).status == 303)
        await harness.panel.app.saleScheduler.wake()
        event = try await stream.next()
        Self.expectEvent(event, id: original.id, action: "sale-cancelled")
        #expect((event.json["product"] as? [String: Any])?["discounted_price"] as? Double == 0)
        #expect(Self.published(harness) == 4)
    }

    @Test func changesFoundByTheSyncAreSentWithoutAPerson() async throws {
        let harness = try await PanelHarness.start(.init(live: true))
        Teardown.add { await harness.stop() }
        let product = try await harness.makeProduct(name: "Synced mug", stock: 3)
        _ = try await harness.browser.get("/products/refresh")
        let stream = try await LiveEventReader.open(harness.browser)
        // Another API client changes and registers products; the next sync finds both.
        _ = try await harness.api.update(id: product.id, changes: ProductChanges(stock: 8))
        let other = try await harness.makeProduct(name: "Made elsewhere")
        _ = try await harness.browser.get("/products/refresh")
        let events = try await stream.products(2)
        let byID = Dictionary(uniqueKeysWithValues: events.map { ($0.json["id"] as? Int ?? 0, $0) })
        Self.expectEvent(try #require(byID[product.id]), id: product.id, action: "edit", by: nil)
        Self.expectEvent(try #require(byID[other.id]), id: other.id, action: "register", by: nil)
        #expect(Self.published(harness) == 2)

        // The product page re-reads: a change made elsewhere is sent at once; an unchanged product sends nothing.
        _ = try await harness.browser.get("/products/\(other.id)")
        _ = try await harness.api.update(id: product.id, changes: ProductChanges(stock: 1))
        _ = try await harness.browser.get("/products/\(product.id)")
        let seen = try await stream.next()
        Self.expectEvent(seen, id: product.id, action: "edit", by: nil)
        #expect((seen.json["product"] as? [String: Any])?["stock"] as? Int == 1)
        #expect(Self.published(harness) == 3)
    }

    @Test func aReconnectReplaysWhatWasMissedOrResets() async throws {
        let harness = try await PanelHarness.start(.init(live: true))
        Teardown.add { await harness.stop() }
        let live = harness.panel.app.live
        for n in 1...5 { live.publishProduct(Array("{\"id\":\(n)}".utf8)) }
        let first = try await LiveEventReader.open(harness.browser)
        live.publishProduct(Array("{\"id\":6}".utf8))
        let sixth = try await first.next()
        let sixthID = try #require(Int(sixth.id ?? ""))

        // Missed events 3…6 come back in order, then new ones.
        let replay = try await LiveEventReader.open(harness.browser, headers: [("Last-Event-ID", String(sixthID - 4))])
        let replayed = try await replay.products(4)
        #expect(replayed.map(\.data) == (3...6).map { "{\"id\":\($0)}" })
        #expect(replayed.compactMap { Int($0.id ?? "") } == Array((sixthID - 3)...sixthID))
        // Up to date: nothing to replay.
        let current = try await LiveEventReader.open(harness.browser, headers: [("Last-Event-ID", String(sixthID))])
        live.publishProduct(Array("{\"id\":7}".utf8))
        #expect(try await current.next().data == "{\"id\":7}")

        // Older than the ring (or from another run): reset.
        let tooOld = try await LiveEventReader.open(harness.browser, headers: [("Last-Event-ID", "12")])
        #expect(try await tooOld.next().name == "reset")
        // Older than 10 minutes: gone too.
        harness.clock.advance(601)
        let stale = try await LiveEventReader.open(harness.browser, headers: [("Last-Event-ID", String(sixthID - 1))])
        #expect(try await stale.next().name == "reset")
    }

    @Test func theRingKeepsTheLastThousand() {
        let streams = LiveStreams(now: Date.init)
        for n in 0..<1_500 { streams.publishProduct(Array("{\"n\":\(n)}".utf8)) }
        #expect(streams.storedEventCount == 1_000)
    }

    @Test func aKeepAliveCommentGoesOutEveryTwentySeconds() async throws {
        let harness = try await PanelHarness.start(.init(live: true))
        Teardown.add { await harness.stop() }
        let stream = try await LiveEventReader.open(harness.browser)
        harness.clock.advance(21)
        #expect(await eventually(seconds: 10) {
            harness.panel.app.live.publishProduct(Array("{}".utf8))
            _ = try? await stream.next()
            return stream.comments.contains(" keep-alive")
        })
    }

    @Test func signingOutEndsTheStreamsOfThatSession() async throws {
        var options = PanelHarness.Options(live: true)
        options.signIn = true
        let harness = try await PanelHarness.start(options)
        Teardown.add { await harness.stop() }
        try await harness.setUpOwner("mina")
        // Without a session: no stream.
        let anonymous = try await harness.newBrowser().get("/events")
        #expect(anonymous.status != 200)

        let stream = try await LiveEventReader.open(harness.browser)
        #expect(stream.head.hasPrefix("HTTP/1.1 200"))
        let token = try await harness.csrfToken(from: "/account")
        let started = ContinuousClock.now
        let out = try await harness.browser.post("/logout", form: [("csrf_token", token)])
        #expect(out.status == 303)
        #expect(await stream.ends())
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test func presenceNamesWhoElseHasTheProductOpen() async throws {
        var options = PanelHarness.Options(live: true)
        options.signIn = true
        let harness = try await PanelHarness.start(options)
        Teardown.add { await harness.stop() }
        try await harness.setUpOwner("mina")
        let jun = harness.newBrowser()
        try await harness.accept(try await harness.invite("jun", role: "editor"), password: "jun-password-1", in: jun)
        let product = try await harness.makeProduct(name: "Watched mug")

        let minas = try await LiveEventReader.open(harness.browser, path: "/events?product=\(product.id)")
        var seen = try await minas.next()
        #expect(seen.name == "presence" && seen.json["people"] as? [String] == [])
        let juns = try await LiveEventReader.open(jun, path: "/events?product=\(product.id)")
        #expect(try await juns.next().json["people"] as? [String] == ["mina"])
        seen = try await minas.next()
        #expect(seen.json["people"] as? [String] == ["jun"])
        // Names only: nothing else about the session.
        #expect(!seen.data.contains("om_session") && !seen.data.contains("127.0.0.1"))
    }

    @Test func noSecretInAThousandEvents() async throws {
        let harness = try await PanelHarness.start(.init(live: true))
        Teardown.add { await harness.stop() }
        var products: [ProductDetail] = []
        for n in 0..<10 { products.append(try await harness.makeProduct(name: "Secretless \(n)")) }
        _ = try await harness.browser.get("/products/refresh")
        let stream = try await LiveEventReader.open(harness.browser)
        let feed = try #require(harness.panel.app.upstream.catalog.feed)
        for round in 0..<100 {
            for product in products {
                feed.stage(product.id)
                feed.recorded(ActivityEntry(person: "local", address: "127.0.0.1", action: round % 2 == 0 ? "edit" : "bulk",
                                            productID: product.id))
            }
        }
        let events = try await stream.products(1_000)
        let cookies = harness.browser.cookies.values
        let secrets = [harness.demoSecret, harness.demoIdentifier, "127.0.0.1"] + cookies
        for event in events {
            for secret in secrets where !secret.isEmpty { #expect(!event.data.contains(secret)) }
            #expect(!event.data.contains("password") && !event.data.contains("csrf") && !event.data.contains("secret"))
        }
    }
}
