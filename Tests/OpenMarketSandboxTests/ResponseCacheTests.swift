import Foundation
import HTTPServer
import Testing
@testable import OpenMarketSandbox

@Suite struct ResponseCacheTests {
    @Test func answersOnlyForTheSameGeneration() {
        let cache = ResponseCache()
        cache.store(HTTPResponse.json(Data("[1]".utf8)), for: "a", generation: 1)
        cache.store(HTTPResponse(status: 204), for: "empty", generation: 1)
        #expect(cache.response(for: "a", generation: 1)?.status == 200)
        #expect(cache.response(for: "empty", generation: 1)?.status == 204)
        #expect(cache.response(for: "a", generation: 2) == nil)
        #expect(cache.response(for: "b", generation: 1) == nil)
    }

    @Test func keysThatVaryCannotGrowItPastItsByteBound() {
        let cache = ResponseCache(capacity: 512, maxBodyBytes: 10_000)
        let page = Data(repeating: UInt8(ascii: "x"), count: 3_000)
        for index in 0..<100 {
            cache.store(HTTPResponse.json(page), for: "/api/products?junk=\(index)", generation: 1)
            #expect(cache.storedBytes <= 10_000)
        }
        // Storing the same key again replaces its bytes rather than adding them.
        cache.store(HTTPResponse.json(page), for: "/api/products?junk=99", generation: 2)
        #expect(cache.response(for: "/api/products?junk=99", generation: 2) != nil)
        #expect(cache.storedBytes <= 10_000)
        // A body over the whole bound is not kept at all.
        cache.store(HTTPResponse.json(Data(count: 20_000)), for: "big", generation: 2)
        #expect(cache.response(for: "big", generation: 2) == nil)
    }
}
