import Foundation
import Testing
@testable import OpenMarketCore

/// KRW amounts are whole won in the core's rules (a stored 12000.5 showed as ₩12,001 on one page
/// and 12000.5 on another); dollars may have cents and no finer.
@Suite struct WholeWonTests {
    private func codes(_ issues: [FieldIssue]) -> [String] { issues.compactMap(\.code) }

    @Test func aNewKRWProductRefusesFractionsOnTheirFields() {
        var draft = NewProductValidationTests.valid
        draft.price = 12_000.5
        #expect(draft.validate().map(\.field) == ["price"])
        #expect(codes(draft.validate()) == ["price_whole_won"])
        draft.price = 12_000
        draft.discountedPrice = 1_000.25
        #expect(draft.validate().map(\.field) == ["discounted_price"])
        #expect(codes(draft.validate()) == ["discount_whole_won"])
        draft.discountedPrice = 1_000
        #expect(draft.validate() == [])
    }

    @Test func dollarsTakeCentsButNoFiner() {
        var draft = NewProductValidationTests.valid
        draft.currency = .USD
        draft.price = 12.5
        draft.discountedPrice = 0.25
        #expect(draft.validate() == [])
        draft.price = 12.505
        #expect(codes(draft.validate()) == ["price_cents"])
    }

    @Test func anEditIsJudgedInTheCurrencyTheProductWillHave() {
        let krw = ProductChangesValidationTests.current   // a KRW product
        #expect(codes(ProductChanges(price: 12_000.5).validate(current: krw)) == ["price_whole_won"])
        #expect(codes(ProductChanges(discountedPrice: 99.9).validate(current: krw)) == ["discount_whole_won"])
        #expect(ProductChanges(price: 12_000).validate(current: krw) == [])
        // Switching to dollars in the same edit makes cents fine; switching to won makes them wrong.
        #expect(ProductChanges(price: 120.5, currency: .USD).validate(current: krw) == [])
        #expect(codes(ProductChanges(price: 4_000.5, currency: .KRW).validate(current: nil)) == ["price_whole_won"])
    }
}
