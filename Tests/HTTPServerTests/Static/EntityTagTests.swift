import Foundation
import Testing
@testable import HTTPServer

@Suite struct EntityTagTests {
    @Test func tagsFollowTheBytes() {
        #expect(EntityTag.of(Data([1, 2, 3])) == EntityTag.of(Data([1, 2, 3])))
        #expect(EntityTag.of(Data([1, 2, 3])) != EntityTag.of(Data([1, 2, 4])))
        #expect(EntityTag.of(Data()).hasPrefix("\"") && EntityTag.of(Data()).hasSuffix("\""))
    }

    @Test func ifNoneMatchListsWildcardsAndWeakForms() {
        #expect(EntityTag.matches(ifNoneMatch: "W/\"a\", \"b\"", etag: "\"b\""))
        #expect(EntityTag.matches(ifNoneMatch: "W/\"b\"", etag: "\"b\""))
        #expect(EntityTag.matches(ifNoneMatch: "*", etag: "\"b\""))
        #expect(!EntityTag.matches(ifNoneMatch: "\"a\"", etag: "\"b\""))
        #expect(!EntityTag.matches(ifNoneMatch: "", etag: "\"b\""))
    }
}
