import Testing
@testable import AdminPanel

@Test func AdminPanelModuleLoads() { #expect(Bool(true)) }
