import Foundation
import Testing
import OpenMarketCore
@testable import AdminPanel

/// Every kind of row the product actions write (bulk, import, revert, restore, the sheet, a
/// refused delete) reads fully in Korean on a Korean page: its name, its sentence and the names of
/// the fields it changed carry no English word and no raw code. Product names and file names
/// here are Korean, so any Latin letter left is the panel's own.
@Suite struct ActivityRowsInKoreanTests {
    static let view = ActivityRowPresenter(localizer: LanguageTests.ko, timeZone: TimeZone(identifier: "Asia/Seoul")!,
                                           products: [52: .init(name: "텀블러", currency: .KRW)])

    /// The visible text of a row: action, product, sentence, each change's field and values.
    static func text(_ entry: ActivityEntry) -> String {
        let row = view.row(ActivityRecord(id: 7, time: Date(timeIntervalSince1970: 1_764_050_400), entry: entry))
        let changes = row.changes.map { "\($0.label) \($0.old) \($0.new)" }
        // The time names its zone (KST), the one Latin word a Korean page keeps on purpose.
        return ([row.actionLabel, row.product?.label ?? "", row.detail?.text ?? ""] + changes).joined(separator: " | ")
    }

    static func latinWords(_ text: String) -> [String] {
        text.split(whereSeparator: { !($0.isASCII && $0.isLetter) }).map(String.init)
    }

    static func entry(_ action: String, changes: [ActivityEntry.FieldChange] = [], detail: ActivityDetail?) -> ActivityEntry {
        ActivityEntry(person: "박직원", address: "127.0.0.1", action: action, productID: 52, changes: changes, detail: detail?.stored)
    }

    @Test func bulkRowsOfEveryActionAndOutcome() {
        let actions: [BulkSelection.Action] = [.delete(password: "x"), .setStock(5), .setDiscount(500),
                                               .adjustPrice(PriceAdjustment(change: .amount(-100)))]
        let outcomes: [(String, [String: String])] = [
            ("bulk_reason_deleted", [:]), ("bulk_reason_stock_set", ["stock": "5"]),
            ("bulk_reason_discount_set", ["discount": "₩500"]),
            ("bulk_reason_discount_above_price", ["discount": "₩5,000", "price": "₩1,000"]),
            ("bulk_reason_price_set", ["old": "₩1,000", "new": "₩900"]),
            ("bulk_reason_price_set_discount_lowered", ["old": "₩1,000", "new": "₩900", "discount": "₩900"]),
            ("bulk_reason_price_not_positive", [:]), ("bulk_reason_not_found", [:]), ("bulk_reason_not_yours", [:]),
            ("bulk_reason_wrong_password", [:]), ("bulk_reason_password_refused", [:]), ("bulk_reason_unknown", [:]),
        ]
        for action in actions {
            for (reason, arguments) in outcomes {
                let outcome = BulkRunner.Outcome(id: 52, name: "텀블러", done: reason.hasSuffix("_set"), reason: reason,
                                                 arguments: arguments,
                                                 changes: [.init(field: "stock", old: "3", new: "5"), .init(field: "price", old: "1000", new: "900")])
                let entry = Self.entry("bulk", changes: outcome.changes, detail: BulkController.bulkActivityDetail(action, outcome))
                let text = Self.text(entry)
                #expect(Self.latinWords(text).isEmpty, "\(action.name) \(reason): \(text)")
            }
        }
        let refused = Self.text(Self.entry("delete-refused", detail: ActivityDetail("bulk_delete_wrong_password")))
        #expect(Self.latinWords(refused).isEmpty, "\(refused)")
    }

    @Test func importRevertRestoreAndSheetRows() {
        let imported = Self.entry("import", changes: [.init(field: "name", old: "텀블러", new: "보온 텀블러"),
                                                      .init(field: "description", old: "가", new: "나"),
                                                      .init(field: "currency", old: "KRW", new: "USD")],
                                  detail: ActivityDetail("import_row", ["line": "3", "file": "내 상품.xlsx"]))
        let original = ActivityRecord(id: 5, time: Date(timeIntervalSince1970: 1_764_050_000),
                                      entry: Self.entry("bulk", detail: ActivityDetail("bulk", ["action_key": "bulk_action_adjust_price"])))
        let reverted = Self.entry("revert", changes: [.init(field: "price", old: "900", new: "1000")],
                                  detail: RevertController.revertDetail(of: original))
        let restored = Self.entry("restore", changes: [.init(field: "id", old: "12", new: "52")], detail: nil)
        let sheetSaved = Self.entry("sheet", changes: [.init(field: "discounted_price", old: "0", new: "500")],
                                    detail: ActivityDetail("sheet_saved", ["product_name": "텀블러", "currency": "KRW"]))
        for entry in [imported, reverted, restored, sheetSaved] {
            let text = Self.text(entry)
            // The file's own name (xlsx) is the seller's; currencies are named as the form names
            // them, with their codes (KRW (₩ 원)).
            let words = Self.latinWords(text).filter { !["xlsx", "KRW", "USD"].contains($0) }
            #expect(words.isEmpty, "\(entry.action): \(text)")
        }
        #expect(Self.text(restored).contains("상품번호 12 52"))
        #expect(Self.text(reverted).contains("‘판매가 조정’ 변경을 되돌렸습니다"))
    }
}
