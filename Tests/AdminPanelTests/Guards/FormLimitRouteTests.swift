import Foundation
import Testing
import TestSupport
@testable import AdminPanel

/// Each form limit gets its own 413 message: many tiny parts, a huge part header and a long
/// text field are not "larger than 16 MiB in all".
@Suite(.awaitsTeardown) struct FormLimitRouteTests {
    @Test func eachLimitSaysWhichItIs() async throws {
        let harness = try await PanelHarness.start()
        Teardown.add { await harness.stop() }
        let token = try await harness.csrfToken(from: "/products/new")

        let manyParts = (0..<200).map { ("x\($0)", "v") }
        let parts = try await harness.browser.postMultipart("/products", fields: [("csrf_token", token)] + manyParts, files: [])
        #expect(parts.status == 413)
        #expect(parts.text.contains("Form too large") && parts.text.contains("at most 64"))
        #expect(!parts.text.contains("in all"))

        let longText = try await harness.browser.postMultipart("/products", fields: [
            ("csrf_token", token), ("description", String(repeating: "a", count: 70 * 1024))], files: [])
        #expect(longText.status == 413)
        #expect(longText.text.contains("“description”") && longText.text.contains("at most 64 KB"))

        let header = try await harness.browser.postMultipart("/products", fields: [("csrf_token", token)], files: [
            .init(filename: String(repeating: "n", count: 100 * 1024), data: TestImages.png())])
        #expect(header.status == 413)
        #expect(header.text.contains("headers over 8 KB"))
        for response in [parts, longText, header] {
            #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
        }
    }
}
