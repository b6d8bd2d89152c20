import Foundation
import Testing
import OpenMarketCore
@testable import AdminPanel

/// A clock the tests move by hand, so expiry is tested without sleeping.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_700_000_000)
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
    var function: @Sendable () -> Date { { [self] in now } }
}

@Suite struct StateTests {
    @Test func limiterLocksAfterTheLimitAndOpensAfterTheWindow() {
        let start = Date(timeIntervalSince1970: 0)
        var limiter = AttemptLimiter(limit: 5, window: 600)
        for i in 0..<4 { limiter.recordFailure(now: start + Double(i)) }
        #expect(limiter.retryAfter(now: start + 5) == nil)
        #expect(limiter.remaining(now: start + 5) == 1)
        limiter.recordFailure(now: start + 10)
        let wait = limiter.retryAfter(now: start + 10)
        #expect(wait != nil && wait! > 580 && wait! <= 600)
        #expect(limiter.retryAfter(now: start + 601) == nil)
    }

    @Test func flashShowsOnceAndSessionsExpireWhenIdle() async {
        let clock = ManualClock()
        let store = SessionStore(idleLifetime: 100, deleteLimit: 5, deleteWindow: 600, now: clock.function)
        let created = await store.visit(id: nil, create: true, takeFlash: true)
        #expect(created.created)
        let session = created.session!
        #expect(session.id.count == 64 && session.csrfToken.count == 64 && session.id != session.csrfToken)
        await store.setFlash("Saved", for: session.id)
        #expect(await store.visit(id: session.id, create: false, takeFlash: false).flash == nil)
        #expect(await store.visit(id: session.id, create: false, takeFlash: true).flash == "Saved")
        #expect(await store.visit(id: session.id, create: false, takeFlash: true).flash == nil)
        clock.advance(101)
        #expect(await store.visit(id: session.id, create: false, takeFlash: true).session == nil)
        #expect(await store.visit(id: "forged", create: false, takeFlash: true).session == nil)
    }

    @Test func sessionCountIsBounded() async {
        let store = SessionStore(maxSessions: 50, deleteLimit: 5, deleteWindow: 600, now: { Date() })
        for _ in 0..<200 { _ = await store.visit(id: nil, create: true, takeFlash: false) }
        #expect(await store.count <= 50)
    }

    @Test func signInReplacesTheSessionID() async {
        let store = SessionStore(deleteLimit: 5, deleteWindow: 600, now: { Date() })
        let old = await store.visit(id: nil, create: true, takeFlash: false).session!
        let new = await store.signIn(replacing: old.id)
        #expect(new.id != old.id && new.signedIn)
        #expect(await store.visit(id: old.id, create: false, takeFlash: false).session == nil)
    }

    @Test func wrongPasswordsLockOnlyThatSession() async {
        let clock = ManualClock()
        let store = SessionStore(deleteLimit: 2, deleteWindow: 600, now: clock.function)
        let a = await store.visit(id: nil, create: true, takeFlash: false).session!
        let b = await store.visit(id: nil, create: true, takeFlash: false).session!
        #expect(await store.recordWrongPassword(for: a.id).remaining == 1)
        #expect(await store.recordWrongPassword(for: a.id).retryAfter != nil)
        #expect(await store.deleteRetryAfter(for: a.id) != nil)
        #expect(await store.deleteRetryAfter(for: b.id) == nil)
        clock.advance(601)
        #expect(await store.deleteRetryAfter(for: a.id) == nil)
    }

    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0])

    @Test func stagedImagesBelongToTheirSessionAndExpire() async throws {
        let clock = ManualClock()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("staging-test-\(UUID().uuidString)")
        let staging = try StagedUploads(directory: folder, lifetime: 3600, now: clock.function)
        let mode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        let (token, images) = try await staging.stage(token: nil, owner: "s1", adding: [("a.png", Self.png, .png)], removing: [])
        #expect(images.count == 1 && token.count == 64)
        #expect(await staging.data(token: token, owner: "s1", id: images[0].id)?.data == Self.png)
        #expect(await staging.data(token: token, owner: "s2", id: images[0].id) == nil)
        let (_, more) = try await staging.stage(token: token, owner: "s1", adding: [("b.png", Self.png, .png)], removing: [images[0].id])
        #expect(more.map(\.filename) == ["b.png"])
        #expect(!FileManager.default.fileExists(atPath: images[0].path))
        clock.advance(3601)
        #expect(await staging.images(token: token, owner: "s1") == nil)
        #expect(!FileManager.default.fileExists(atPath: more[0].path))
        await #expect(throws: StagedUploads.Failure.expired) {
            _ = try await staging.stage(token: token, owner: "s1", adding: [], removing: [])
        }
        await staging.removeAll()
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func stagingFileWorkRunsOnItsOwnThreadNotThePool() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("staging-test-\(UUID().uuidString)")
        let staging = try StagedUploads(directory: folder, lifetime: 3600, now: { Date() })
        let poolLabel = currentDispatchQueueLabel()   // this test runs on the pool
        for _ in 0..<50 {
            let label = await staging.currentDispatchLabel()
            #expect(label != poolLabel)
        }
        await staging.removeAll()
    }

    @Test func mediaCacheKeepsItsByteBound() async {
        let cache = MediaCache(maxBytes: 1000)
        for i in 0..<10 {
            await cache.put("k\(i)", CachedMedia(data: Data(count: 200), contentType: "image/png", etag: "\"\(i)\""))
        }
        #expect(await cache.totalBytes <= 1000)
        #expect(await cache.get("k9") != nil)
        #expect(await cache.get("k0") == nil)
        await cache.put("huge", CachedMedia(data: Data(count: 600), contentType: "image/png", etag: "\"h\""))
        #expect(await cache.get("huge") == nil)
    }

    @Test func tokensAreRandomAndComparedWhole() {
        #expect(SecureToken.make() != SecureToken.make())
        #expect(SecureToken.accessCode().count == 14)
    }
}

extension StagedUploads {
    /// Runs on the actor's executor: the dispatch queue label of the thread it runs on.
    func currentDispatchLabel() -> String { currentDispatchQueueLabel() }
}
