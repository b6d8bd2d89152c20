import Foundation
import HTTPServer
import Testing
@testable import AdminPanel

/// Limits, roles, password rules, signed tokens and the session store, without a server.
@Suite struct AccessUnitTests {
    @Test func limiterCountsReservationsAndOpensAfterTheWindow() {
        let start = Date(timeIntervalSince1970: 0)
        var limiter = ReservingLimiter(limit: 3, window: 600)
        for id in 0..<3 {
            #expect(limiter.retryAfter("a", now: start + Double(id)) == nil)
            limiter.take("a", id: id, now: start + Double(id))
        }
        #expect(limiter.remaining("a", now: start + 3) == 0)
        #expect(limiter.retryAfter("a", now: start + 10) == 590)
        #expect(limiter.retryAfter("b", now: start + 10) == nil)
        limiter.giveBack("a", id: 1)
        #expect(limiter.retryAfter("a", now: start + 10) == nil)
        limiter.take("a", id: 9, now: start + 10)
        #expect(limiter.retryAfter("a", now: start + 599) == 1)          // slots at t=0, 2 and 10
        #expect(limiter.retryAfter("a", now: start + 600) == nil)        // t=0 left the window
    }

    @Test func aFullLimiterDropsItsOldestKeysInsteadOfRefusingNewcomers() {
        let start = Date(timeIntervalSince1970: 0)
        var limiter = ReservingLimiter(limit: 2, window: 600, maxKeys: 10)
        // "locked" reaches its limit first (the oldest key), then a flood of made-up names fills the table.
        limiter.take("locked", id: 1, now: start)
        limiter.take("locked", id: 2, now: start)
        for index in 0..<9 { limiter.take("flood-\(index)", id: 10 + index, now: start + Double(index + 1)) }
        #expect(limiter.retryAfter("newcomer", now: start + 20) == nil)   // full, yet a newcomer never waits
        for index in 9..<200 {
            let time = start + Double(index + 1)
            #expect(limiter.retryAfter("flood-\(index)", now: time) == nil)
            limiter.take("flood-\(index)", id: 10 + index, now: time)
        }
        // The table stayed bounded, and the locked name is still locked (unlocked keys went first).
        #expect(limiter.remaining("locked", now: start + 300) == 0)
        #expect(limiter.retryAfter("locked", now: start + 300) != nil)
        #expect(limiter.remaining("flood-0", now: start + 300) == 2)      // the oldest unlocked keys were dropped
        #expect(limiter.retryAfter("locked", now: start + 601) == nil)    // and expiry still frees it
    }

    @Test func concurrentReservationsNeverExceedEitherLimit() async {
        let gate = AttemptGate(first: ReservingLimiter(limit: 5, window: 600), second: ReservingLimiter(limit: 20, window: 600),
                               now: { Date(timeIntervalSince1970: 1000) })
        // 4 people × 30 simultaneous tries: 5 each would be 20 — exactly the panel-wide limit.
        let granted = await withTaskGroup(of: (String, Bool).self) { group in
            for person in ["a", "b", "c", "d", "e"] {
                for _ in 0..<30 {
                    group.addTask {
                        if case .success = await gate.reserve(person, "*") { return (person, true) }
                        return (person, false)
                    }
                }
            }
            var counts: [String: Int] = [:]
            for await (person, ok) in group where ok { counts[person, default: 0] += 1 }
            return counts
        }
        #expect(granted.values.allSatisfy { $0 <= 5 })
        #expect(granted.values.reduce(0, +) == 20)
        // A released ticket (right password) frees its slot.
        let gate2 = AttemptGate(first: ReservingLimiter(limit: 1, window: 600), second: ReservingLimiter(limit: 9, window: 600),
                                now: { Date() })
        guard case .success(let ticket) = await gate2.reserve("x", "*") else { Issue.record("no ticket"); return }
        if case .success = await gate2.reserve("x", "*") { Issue.record("over the limit") }
        await gate2.release(ticket)
        if case .failure = await gate2.reserve("x", "*") { Issue.record("released slot not free") }
    }

    @Test func rolesDecideWhatEachRouteNeeds() throws {
        #expect(try RouteTableTests.roleNeeded(method: "GET", path: "/products") == .viewer)
        #expect(try RouteTableTests.roleNeeded(method: "GET", path: "/products/12") == .viewer)
        #expect(try RouteTableTests.roleNeeded(method: "GET", path: "/activity") == .viewer)
        for path in ["/products/new", "/products/12/edit", "/products/12/delete", "/products/12/duplicate"] {
            #expect(try RouteTableTests.roleNeeded(method: "GET", path: path) == .editor, "\(path)")
        }
        for path in ["/products", "/products/12/edit", "/products/12/delete", "/products/bulk"] {
            #expect(try RouteTableTests.roleNeeded(method: "POST", path: path) == .editor, "\(path)")
        }
        for (method, path) in [("GET", "/people"), ("POST", "/people"), ("POST", "/people/a/role")] {
            #expect(try RouteTableTests.roleNeeded(method: method, path: path) == .owner)
        }
        for path in ["/logout", "/account/password", "/account/sessions/others/revoke"] {
            #expect(try RouteTableTests.roleNeeded(method: "POST", path: path) == .viewer, "\(path)")
        }
        #expect(Role.owner <= .editor && Role.editor <= .editor && !(Role.viewer <= .editor))
        #expect(Role.editor.canWrite && !Role.viewer.canWrite && !Role.editor.canManagePeople && Role.owner.canManagePeople)
    }

    @Test func passwordAndNameRulesAnswerTheirMessages() {
        #expect(PasswordRules.problem(password: "short", confirmation: "short", name: "mina") == "password_too_short")
        #expect(PasswordRules.problem(password: "mina.kim.01", confirmation: nil, name: "Mina.Kim.01") == "password_is_name")
        #expect(PasswordRules.problem(password: "long enough pass", confirmation: "long enough pas", name: "mina") == "password_mismatch")
        #expect(PasswordRules.problem(password: String(repeating: "x", count: 1025), confirmation: nil, name: "m") == "password_too_long")
        #expect(PasswordRules.problem(password: "비밀번호는열자이상입니다", confirmation: nil, name: "mina") == nil)
        #expect(PasswordRules.problem(password: "0123456789", confirmation: "0123456789", name: "mina") == nil)
        #expect(PersonNameRules.problem("a") == "person_name_length")
        #expect(PersonNameRules.problem("mina kim") == "person_name_characters")
        #expect(PersonNameRules.problem("mina/../x") == "person_name_characters")
        #expect(PersonNameRules.problem("LOCAL") == "person_name_reserved")
        #expect(PersonNameRules.problem("김민준") == nil && PersonNameRules.problem("mina.kim_2-b") == nil)
        let l = Localizer.english("password_too_short")
        #expect(l.contains("{min}"))   // the catalog text names the minimum; pages fill it in
    }

    @Test func formTokensAndFlashCookiesAreSignedAndBoundToTheBrowser() throws {
        let key = Array(repeating: UInt8(7), count: PanelCrypto.keyByteCount)
        let tokens = FormTokens(key: key)
        let browser = SecureToken.make(), other = SecureToken.make()
        #expect(tokens.isValid(tokens.token(for: browser), browserKey: browser))
        #expect(!tokens.isValid(tokens.token(for: browser), browserKey: other))
        #expect(!tokens.isValid(nil, browserKey: browser) && !tokens.isValid(tokens.token(for: browser), browserKey: nil))
        #expect(!tokens.isValid(tokens.token(for: "short"), browserKey: "short"))
        #expect(!FormTokens(key: Array(repeating: 8, count: PanelCrypto.keyByteCount)).isValid(tokens.token(for: browser), browserKey: browser))
        // Signed in, the token is bound to the session too: a signed-out pair, or another
        // session's token, is refused with it.
        let session = "session-hash-a"
        #expect(tokens.isValid(tokens.token(for: browser, session: session), browserKey: browser, session: session))
        #expect(!tokens.isValid(tokens.token(for: browser), browserKey: browser, session: session))
        #expect(!tokens.isValid(tokens.token(for: browser, session: "session-hash-b"), browserKey: browser, session: session))
        #expect(!tokens.isValid(tokens.token(for: browser, session: session), browserKey: browser))

        let flash = FlashCookie(key: key)
        let cookie = flash.cookie("Saved “머그컵 <b>”.")
        let request = try HTTPRequestFactory.make(cookie: "\(FlashCookie.cookieName)=\(cookie.value)")
        #expect(flash.message(request) == "Saved “머그컵 <b>”.")
        let tampered = try HTTPRequestFactory.make(cookie: "\(FlashCookie.cookieName)=\(cookie.value.dropFirst(2))")
        #expect(flash.message(tampered) == nil)
    }

    @Test func sessionsPersistExpireAndStoreOnlyAHash() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("people-unit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = ManualClock()
        let database = try PanelDatabase(directory: folder)
        let people = try PeopleStore(database: database, now: clock.function)
        _ = try await people.createOwner(name: "mina", passwordHash: "not-a-real-hash")
        let store = try SessionStore(database: database, now: clock.function)
        let id = try await store.create(person: "mina", address: "192.168.0.9", browser: "Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0")
        #expect(PanelCrypto.isToken(id))
        #expect(await store.find(cookie: id, address: "192.168.0.9")?.browser == "Chrome · Linux")
        let file = try Data(contentsOf: folder.appendingPathComponent("panel.sqlite"))
            + ((try? Data(contentsOf: folder.appendingPathComponent("panel.sqlite-wal"))) ?? Data())
        #expect(file.range(of: Data(id.utf8)) == nil)
        #expect(file.range(of: Data(PanelCrypto.sha256Hex(id).utf8)) != nil)
        // Reopened (a restart): still there.
        let reopened = try SessionStore(database: PanelDatabase(directory: folder), now: clock.function)
        #expect(await reopened.find(cookie: id, address: "x") != nil)
        // Idle 12 h → gone; a busy one ends after 30 days.
        clock.advance(12 * 3600 + 1)
        #expect(await reopened.find(cookie: id, address: "x") == nil)
        let busy = try await reopened.create(person: "mina", address: "a", browser: "")
        for _ in 0..<31 {
            clock.advance(86_400 - 1)
            _ = await reopened.find(cookie: busy, address: "a")
        }
        #expect(await reopened.find(cookie: busy, address: "a") == nil)
        #expect(await reopened.find(cookie: "not-a-token", address: "a") == nil)
    }

    @Test func aDamagedPanelDatabaseStopsTheStartNamingTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("people-corrupt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("panel.sqlite")
        try Data(repeating: 0x41, count: 8192).write(to: file)
        do {
            _ = try PanelDatabase(directory: folder)
            Issue.record("a damaged file was accepted")
        } catch let error as PanelStartupError {
            #expect(error.description.contains(file.path))
        }
        #expect(try Data(contentsOf: file) == Data(repeating: 0x41, count: 8192))   // never reset
    }
}

/// Requests for unit tests that only need headers.
enum HTTPRequestFactory {
    static func make(cookie: String) throws -> HTTPRequest {
        var headers = HTTPHeaders()
        headers["Cookie"] = cookie
        return try HTTPRequest(target: "/", headers: headers)
    }
}
