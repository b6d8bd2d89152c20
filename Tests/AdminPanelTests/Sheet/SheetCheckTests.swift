import Foundation
import Testing
import OpenMarketCore
@testable import AdminPanel

/// A posted sheet read into rows, and each changed cell judged by the edit form's rules.
@Suite struct SheetCheckTests {
    static func loaded(price: String = "10000", discount: String = "1000", stock: String = "5") -> ProductFormValues {
        var values = ProductFormValues()
        values.name = "Sheet product"
        values.price = price
        values.discountedPrice = discount
        values.stock = stock
        return values
    }

    @Test func postedFieldsBecomeRowsAndOddNamesAreIgnored() {
        let rows = SheetRowInput.rows([("csrf_token", "x"), ("12.price", " 12,000 "), ("12.was.price", "10000"),
                                       ("7.stock", "3"), ("12.stock", "5"), ("012.price", "1"), ("-3.price", "1"),
                                       ("12.colour", "red"), ("12.was.name", "A"), ("12.is.price", "1"), ("x.price", "1")])
        #expect(rows.map(\.id) == [12, 7])
        #expect(rows[0].typed == [.price: "12,000", .stock: "5"])
        #expect(rows[0].was == [.price: "10000", .name: "A"])
        #expect(rows[0].changedFields(loaded: Self.loaded()) == [.price])
        #expect(rows[1].changedFields(loaded: Self.loaded()) == [.stock])
        // Grouped stock is the same number.
        #expect(SheetRowInput.same(.stock, "1,200", "1200") && !SheetRowInput.same(.stock, "12", "1200"))
    }

    @Test func cellsAreJudgedByTheFormsRulesAsSellersTypeThem() {
        func issues(_ typed: [SheetField: String], currency: Currency = .KRW) -> [String] {
            let row = SheetRowInput(id: 1, typed: typed)
            return SheetCheck(row, changed: Array(typed.keys), currency: currency, loaded: Self.loaded()).issues.compactMap(\.code)
        }
        #expect(issues([.price: "₩12,000"]).isEmpty)
        #expect(issues([.price: "12,000.5"]) == ["price_whole_won"])
        #expect(issues([.price: "1,012.50"], currency: .USD).isEmpty)
        #expect(issues([.price: "0"]) == ["price_not_positive"])
        #expect(issues([.price: "12,00"]) == ["price_unreadable"])
        #expect(issues([.price: ""]) == ["price_empty"])
        #expect(issues([.stock: "-1"]) == ["stock_negative"])
        #expect(issues([.stock: "2.5"]) == ["stock_unreadable"])
        #expect(issues([.discountedPrice: "₩10,001"]) == ["discount_over_price"])
        #expect(issues([.discountedPrice: ""]).isEmpty)
        #expect(issues([.price: "900"]) == ["price_under_discount"])   // below the discount left alone
        #expect(issues([.price: "900", .discountedPrice: "0"]).isEmpty)
        #expect(issues([.name: String(repeating: "가", count: 101)]) == ["name_too_long"])
        #expect(issues([.name: "  ab "]) == ["name_too_short"])
        let check = SheetCheck(SheetRowInput(id: 1, typed: [.price: "12,000", .stock: "7"]), changed: [.price, .stock],
                               currency: .KRW, loaded: Self.loaded())
        #expect(check.changes == ProductChanges(price: 12_000, stock: 7))
    }
}
