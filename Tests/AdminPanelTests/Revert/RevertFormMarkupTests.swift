import Foundation
import Testing
@testable import AdminPanel

/// The revert form (`revert_form.html`, a typed `RevertFormView` inside every activity row) with
/// the v1 password field, byte for byte: `scripts/compare-pages` covers the v2 form, this the v1 one.
@Suite(.awaitsTeardown) struct RevertFormMarkupTests {
    @Test func aV1RowsFormAsksForThePasswordWithItsOwnFieldID() async throws {
        let harness = try await V1PanelTests.start()
        let id = try V1PanelTests.registeredID(try await V1PanelTests.register(harness, name: "Old lamp"))
        let form = try await harness.browser.get("/products/\(id)/edit")
        let saved = try await harness.browser.postMultipart("/products/\(id)/edit", fields: V1PanelTests.editFields(
            form, ["price": "17000", "password": V1PanelTests.password]), files: [])
        #expect(saved.status == 303)

        let log = try await harness.browser.get("/activity?action=edit")
        let token = try #require(log.inputValue("csrf_token"))
        let action = try #require(log.text.range(of: #"action="/activity/(\d+)/revert""#, options: .regularExpression))
        let row = log.text[action].dropFirst(#"action="/activity/"#.count).prefix { $0.isNumber }
        #expect(log.text.contains("""
            <form method="post" action="/activity/\(row)/revert" class="inline-form" data-revert>
              <input type="hidden" name="csrf_token" value="\(token)">
              <label for="revert-password-\(row)">Product password</label>
              <input type="password" id="revert-password-\(row)" name="password" required autocomplete="current-password" maxlength="64">
              <button type="submit" class="button button--quiet">Revert</button>
            </form>
            """))

        let korean = try await harness.browser.get("/activity?action=edit&lang=ko")
        #expect(korean.text.contains(#"<label for="revert-password-\#(row)">상품 비밀번호</label>"#))
        #expect(korean.text.contains(#"<button type="submit" class="button button--quiet">되돌리기</button>"#))
    }
}
