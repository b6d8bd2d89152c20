import Testing
@testable import HTMLTemplates

@Test func HTMLTemplatesModuleLoads() { #expect(Bool(true)) }
