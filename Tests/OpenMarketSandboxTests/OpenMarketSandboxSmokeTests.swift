import Testing
@testable import OpenMarketSandbox

@Test func OpenMarketSandboxModuleLoads() { #expect(Bool(true)) }
