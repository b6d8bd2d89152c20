import Foundation
import TestSupport
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

    /// Past `maxBatches` the least recently touched batch goes (its files too), whoever owns it.
    @Test func stagedBatchesAreBoundedInNumber() async throws {
        let clock = ManualClock()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("staging-test-\(UUID().uuidString)")
        let staging = try StagedUploads(directory: folder, lifetime: 3600, maxBatches: 3, now: clock.function)
        var staged: [(token: String, images: [StagedImage])] = []
        for owner in ["s1", "s2", "s3", "s4"] {
            staged.append(try await staging.stage(token: nil, owner: owner, adding: [("a.png", Self.png, .png)], removing: []))
            clock.advance(1)
        }
        _ = try await staging.stage(token: staged[1].token, owner: "s2", adding: [], removing: [])   // touched: now newest
        staged.append(try await staging.stage(token: nil, owner: "s5", adding: [("b.png", Self.png, .png)], removing: []))
        #expect(await staging.images(token: staged[0].token, owner: "s1") == nil)
        #expect(await staging.images(token: staged[2].token, owner: "s3") == nil)
        #expect(!FileManager.default.fileExists(atPath: staged[0].images[0].path))
        for (index, owner) in [(1, "s2"), (3, "s4"), (4, "s5")] {
            #expect(await staging.images(token: staged[index].token, owner: owner)?.count == 1)
        }
        await staging.removeAll()
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

    /// Tiny images count with what each entry costs besides its bytes, so a thousand 70-byte
    /// thumbnails cannot hold several times the bound (they held ~5× before).
    @Test func mediaCacheCountsEachEntrysOverhead() async {
        let cache = MediaCache(maxBytes: 64 << 10)
        let png = Data(repeating: 1, count: 70)
        for i in 0..<1000 {
            await cache.put("http://127.0.0.1:8081/media/thumb/\(i).png", CachedMedia(data: png, contentType: "image/png", etag: "\"\(i)\""))
        }
        let perEntry = 70 + MediaCache.entryOverhead
        #expect(await cache.count <= (64 << 10) / perEntry)
        #expect(await cache.count >= (64 << 10) / (perEntry + 64))
        #expect(await cache.totalBytes <= 64 << 10)
    }

    @Test func tokensAreRandomAndComparedWhole() {
        #expect(SecureToken.make() != SecureToken.make())
    }
}

extension StagedUploads {
    /// Runs on the actor's executor: the dispatch queue label of the thread it runs on.
    func currentDispatchLabel() -> String { currentDispatchQueueLabel() }
}
