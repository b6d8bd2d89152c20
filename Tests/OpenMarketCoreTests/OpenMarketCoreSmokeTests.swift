import Testing
@testable import OpenMarketCore

@Test func OpenMarketCoreModuleLoads() { #expect(Bool(true)) }
