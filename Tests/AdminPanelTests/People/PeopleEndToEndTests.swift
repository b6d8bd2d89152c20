import Foundation
import Testing
import TestSupport
import HTTPServer
import OpenMarketCore
@testable import AdminPanel

/// The end-to-end checks over real sockets: floods, restarts, concurrent deletes.
@Suite(.awaitsTeardown) struct PeopleEndToEndTests {
    /// 16 workers × 400 = 6,400 requests by default, so the suite's other tests keep ephemeral
    /// ports; PEOPLE_FLOOD_PER_WORKER=1250 runs the 20,000 (that many closes once
    /// overflowed the stack in HTTPServer's connection-closed callback; it passes now).
    static let floodPerWorker = Int(ProcessInfo.processInfo.environment["PEOPLE_FLOOD_PER_WORKER"] ?? "") ?? 400
    /// Thousands of cookieless requests (sign-in page, protected pages, forged posts) store nothing and
    /// push nobody out: the signed-in owner's session and open form still work afterwards.
    @Test func anonymousFloodLeavesASignedInSessionWorking() async throws {
        let harness = try await PanelHarness.start(.init(signIn: true))
        Teardown.add { await harness.stop() }
        try await harness.setUpOwner("boss")
        let token = try await harness.csrfToken(from: "/products/new")
        let sessionsBefore = await harness.panel.app.stores.sessions.count
        let statuses = await withTaskGroup(of: [Int: Int].self) { group in
            for worker in 0..<16 {
                group.addTask {
                    var counts: [Int: Int] = [:]
                    let anonymous = harness.newBrowser()
                    for index in 0..<Self.floodPerWorker {
                        anonymous.setCookie("om_form", nil)
                        let response: RawResponse?
                        switch (worker + index) % 4 {
                        case 0: response = try? await anonymous.get("/login")
                        case 1: response = try? await anonymous.get("/products/new")
                        case 2: response = try? await anonymous.post("/login", form: [("name", "boss"), ("password", "x")])
                        default: response = try? await anonymous.get("/products")
                        }
                        counts[response?.status ?? 0, default: 0] += 1
                    }
                    return counts
                }
            }
            var all: [Int: Int] = [:]
            for await counts in group { all.merge(counts, uniquingKeysWith: +) }
            return all
        }
        #expect(statuses.values.reduce(0, +) == 16 * Self.floodPerWorker)
        #expect(statuses[0] == nil, "requests failed at the socket")
        #expect(await harness.panel.app.stores.sessions.count == sessionsBefore)
        let page = try await harness.browser.get("/products")
        #expect(page.status == 200)
        let registered = try await harness.browser.postMultipart("/products", fields: RegisterRouteTests.fields(token), files: [
            .init(filename: "a.png", type: "image/png", data: TestImages.png())])
        #expect(registered.status == 303)
        let failed = try await harness.panel.app.stores.activity.list(.init(action: "sign-in-failed"), page: 1).rows
        #expect(failed.isEmpty)   // the forged posts had no form token: refused before any check
    }

    /// After a restart on the same DATA the session is still signed in and a form opened before
    /// the restart still submits.
    @Test func restartKeepsTheSessionAndTheOpenFormsToken() async throws {
        let harness = try await PanelHarness.start(.init(signIn: true))
        Teardown.add { await harness.stop() }
        try await harness.setUpOwner("boss")
        let token = try await harness.csrfToken(from: "/products/new")
        let (again, browser) = try await harness.restartPanel()
        Teardown.add { await again.shutdown() }
        #expect(try await browser.get("/products").status == 200)
        let registered = try await browser.postMultipart("/products", fields: RegisterRouteTests.fields(token, name: "After restart"),
                                                         files: [.init(filename: "a.png", type: "image/png", data: TestImages.png())])
        #expect(registered.status == 303)
        #expect(again.setupPath == nil)   // an owner exists: no setup link is printed any more
    }

    /// 30 simultaneous wrong vendor passwords from one person: at most 5 reach the API
    /// (counted at the sandbox); the rest answer 429 with Retry-After. Then the panel-wide limit.
    @Test func concurrentWrongDeletePasswordsStayWithinTheLimit() async throws {
        let reached = LockedCounter()
        let harness = try await PanelHarness.start(.init(live: true, signIn: true, sandboxObserver: { entry in
            if entry.method != "GET" { reached.add() }
        }))
        Teardown.add { await harness.stop() }
        try await harness.setUpOwner("boss")
        let product = try await harness.makeProduct()
        let before = reached.value
        let token = try await harness.csrfToken(from: "/products/\(product.id)")
        let browser = harness.browser
        let statuses = await withTaskGroup(of: (Int, String?).self) { group in
            for _ in 0..<30 {
                group.addTask {
                    let answer = try? await browser.post("/products/\(product.id)/delete", form: [("csrf_token", token), ("password", "wrong-password")])
                    return (answer?.status ?? 0, answer?.header("Retry-After"))
                }
            }
            var all: [(Int, String?)] = []
            for await status in group { all.append(status) }
            return all
        }
        let calls = reached.value - before
        print("delete concurrency: 30 simultaneous wrong passwords, \(calls) reached the sandbox; statuses \(statuses.map(\.0).sorted())")
        #expect(calls <= 5)
        #expect(statuses.filter { $0.0 == 422 }.count + statuses.filter { $0.0 == 429 }.count == 30)
        #expect(statuses.filter { $0.0 == 429 }.allSatisfy { $0.1.flatMap { Int($0) }.map { $0 > 0 && $0 <= 600 } == true })
        // The right password now waits too (the person's limit), and the product is still there.
        let right = try await browser.post("/products/\(product.id)/delete", form: [("csrf_token", token), ("password", harness.demoSecret)])
        #expect(right.status == 429)
        #expect(try await harness.api.product(id: product.id).id == product.id)
        // Panel-wide: five people × 5 wrong = 25 > 20.
        var others: [TestBrowser] = []
        for index in 0..<5 {
            let link = try await harness.invite("editor\(index)", role: "editor")
            let other = harness.newBrowser()
            try await harness.accept(link, password: "editor-password-\(index)", in: other)
            others.append(other)
        }
        let beforeWide = reached.value
        var wideStatuses: [Int] = []
        for other in others {
            let otherToken = try #require(try await other.get("/products/\(product.id)").inputValue("csrf_token"))
            for _ in 0..<5 {
                wideStatuses.append(try await other.post("/products/\(product.id)/delete",
                                                         form: [("csrf_token", otherToken), ("password", "wrong-password")]).status)
            }
        }
        #expect(reached.value - beforeWide <= 15)   // 5 of the 20 panel-wide slots were already used
        #expect(wideStatuses.filter { $0 == 429 }.count >= 10)
        let refused = try await harness.panel.app.stores.activity.list(.init(action: "delete-refused"), page: 1).rows
        #expect(refused.count == reached.value - before)
    }

    /// 30 simultaneous wrong vendor passwords from 6 people: the 20 the panel-wide limit lets
    /// through are checked by the API and each answers "wrong password" (422), even those that
    /// find no tries left once checked; only the 10 never checked answer 429 ("wait").
    @Test func everyCheckedWrongPasswordIsToldItWasWrong() async throws {
        let reached = LockedCounter()
        let harness = try await PanelHarness.start(.init(live: true, signIn: true, sandboxObserver: { entry in
            if entry.method == "POST", entry.route.contains("/secret") { reached.add() }
        }))
        Teardown.add { await harness.stop() }
        try await harness.setUpOwner("boss")
        let product = try await harness.makeProduct()
        var people = [harness.browser]
        for index in 0..<5 {
            let link = try await harness.invite("editor\(index)", role: "editor")
            let other = harness.newBrowser()
            try await harness.accept(link, password: "editor-password-\(index)", in: other)
            people.append(other)
        }
        var tokens: [String] = []
        for person in people { tokens.append(try #require(try await person.get("/products/\(product.id)").inputValue("csrf_token"))) }
        let before = reached.value
        let answers = await withTaskGroup(of: (Int, Bool).self) { group in
            for (person, token) in zip(people, tokens) {
                for _ in 0..<5 {
                    group.addTask {
                        let answer = try? await person.post("/products/\(product.id)/delete",
                                                            form: [("csrf_token", token), ("password", "wrong-password")])
                        return (answer?.status ?? 0, answer?.text.contains("That password is not right") == true)
                    }
                }
            }
            var all: [(Int, Bool)] = []
            for await answer in group { all.append(answer) }
            return all
        }
        let checked = reached.value - before
        #expect(checked == 20)
        #expect(answers.filter { $0.0 == 422 && $0.1 }.count == checked)
        #expect(answers.filter { $0.0 == 429 && !$0.1 }.count == 30 - checked)
        #expect(try await harness.api.product(id: product.id).id == product.id)
    }
}

final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
