import Testing
@testable import HTTPServer

@Test func HTTPServerModuleLoads() { #expect(Bool(true)) }
