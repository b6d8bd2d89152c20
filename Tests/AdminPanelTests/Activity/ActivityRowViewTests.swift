import Foundation
import HTMLTemplates
import Testing
import OpenMarketCore
@testable import AdminPanel

/// The activity log and product history in the page's language: field names as on the form,
/// money with its currency, every detail translated, products by name, times in the panel's zone.
@Suite struct ActivityRowViewTests {
    static let seoul = TimeZone(identifier: "Asia/Seoul")!
    static let view = ActivityRowPresenter(localizer: LanguageTests.ko, timeZone: seoul,
                                      products: [52: .init(name: "텀블러 3", currency: .KRW)])

    private func record(_ entry: ActivityEntry, at seconds: TimeInterval = 0) -> ActivityRecord {
        ActivityRecord(id: 1, time: Date(timeIntervalSince1970: seconds), entry: entry)
    }

    @Test func anEditReadsAsTheFormWithMoneyAndTheThumbnailInWords() throws {
        let entry = ActivityEntry(person: "박직원", address: "192.168.0.7", action: "edit", productID: 52,
                                  changes: [.init(field: "price", old: "1000", new: "45000"),
                                            .init(field: "discounted_price", old: "0", new: "500"),
                                            .init(field: "stock", old: "3", new: "1200"),
                                            .init(field: "thumbnail_id", old: "121", new: "122")],
                                  detail: ActivityDetail("edited", ["product_name": "텀블러 3", "currency": "KRW"]).stored)
        let row = Self.view.row(record(entry))
        let changes = row.changes
        let shown = changes.map { [$0.label, $0.old, $0.new] }
        #expect(shown == [["판매가", "₩1,000", "₩45,000"], ["즉시할인 금액", "₩0", "₩500"], ["재고수량", "3", "1,200"],
                          ["대표 이미지", "", "대표 이미지 변경"]])
        // The stored field names stay as hooks (data-change) for reverts and tests.
        #expect(changes.map(\.field) == ["price", "discounted_price", "stock", "thumbnail_id"])
        #expect(row.product?.label == "‘텀블러 3’")
        #expect(row.detail == nil)   // an edit's detail only carries the name and currency
        #expect(row.actionLabel == "수정")
    }

    @Test func timesAreInThePanelsZoneWithTheZoneNamed() {
        let entry = ActivityEntry(person: "local", address: "127.0.0.1", action: "sign-in")
        let time = Self.view.row(record(entry, at: 1_764_050_400)).time
        // 2025-11-25 06:00 UTC is 15:00 in Seoul.
        #expect(time.hasPrefix("2025년 11월 25일 15:00 "), "\(time)")
        #expect(time.hasSuffix(" KST"), "\(time)")
        #expect(Localizer.zoneName(TimeZone(secondsFromGMT: -(3 * 3600 + 1800))!, at: Date()) == "UTC−3:30")
        let english = ActivityRowPresenter(localizer: LanguageTests.en, timeZone: TimeZone(identifier: "UTC")!, products: [:])
        #expect(english.row(record(entry, at: 1_764_050_400)).time == "Nov 25, 2025 06:00 UTC")
    }

    @Test func bulkRowsNameTheProductAndSpeakTheReadersLanguage() {
        let outcome = BulkRunner.Outcome(id: 52, name: "텀블러 3", done: true, reason: "bulk_reason_price_set",
                                         arguments: ["old": "₩1,000", "new": "₩900", "discount": "₩0"])
        let detail = BulkController.bulkActivityDetail(.adjustPrice(PriceAdjustment(change: .amount(-100))), outcome)
        let entry = ActivityEntry(person: "local", address: "127.0.0.1", action: "bulk", productID: 77, detail: detail.stored)
        // Product 77 has left the catalog since: the row still names it.
        let row = Self.view.row(record(entry))
        #expect(row.detail?.text == "판매가 조정 완료 — 판매가 변경: ₩1,000 → ₩900")
        #expect(row.product?.label == "‘텀블러 3’")
        let english = ActivityRowPresenter(localizer: LanguageTests.en, timeZone: Self.seoul, products: [:])
        let englishDetail = english.row(record(entry)).detail?.text ?? ""
        #expect(englishDetail.contains("₩1,000") && !englishDetail.contains("가격"), "\(englishDetail)")
        // A product the log never named shows its number in words, not "상품 52" glued to nothing.
        let bare = ActivityEntry(person: "local", address: "127.0.0.1", action: "bulk", productID: 99)
        #expect(Self.view.row(record(bare)).product?.label == "상품 번호 99")
    }

    @Test func peopleDetailsAreSentencesWithRolesInWords() {
        func detail(_ name: String, _ arguments: [String: String]) -> String? {
            let entry = ActivityEntry(person: "owner", address: "127.0.0.1", action: "person-invited",
                                      detail: ActivityDetail(name, arguments).stored)
            return Self.view.row(record(entry)).detail?.text
        }
        #expect(detail("person_invited", ["name": "박직원", "role": "editor"]) == "박직원님을 상품 관리자로 초대했습니다.")
        #expect(detail("person_invited", ["name": "김보기", "role": "viewer"]) == "김보기님을 조회 전용으로 초대했습니다.")
        #expect(detail("role_changed", ["name": "박직원", "old_role": "editor", "new_role": "owner"])
                == "박직원님의 역할 변경: 상품 관리자 → 대표 관리자")
        #expect(detail("invitation_accepted", [:]) == "초대를 수락했습니다.")
        #expect(detail("sessions_revoked_others", ["count": "3"]) == "다른 모든 곳(3곳)에서 로그아웃했습니다.")
        // A detail the catalog does not know shows nothing rather than a key or JSON.
        #expect(detail("no_such_detail", ["x": "y"]) == nil)
    }

    @Test func kindsAreTableDrivenWithAFallback() {
        for kind in ["import", "restore", "revert", "sale-start", "sale-end", "sale-cancelled"] {
            #expect(ActivityAction.all.contains(kind))
            #expect(LanguageTests.ko.catalog.texts[ActivityAction.labelKey(kind)] != nil, "\(kind)")
            #expect(LanguageTests.en.catalog.texts[ActivityAction.labelKey(kind)] != nil, "\(kind)")
        }
        #expect(ActivityAction.label("sale-start", LanguageTests.ko) == "할인 시작")
        #expect(ActivityAction.label("not-yet-named", LanguageTests.ko) == "not-yet-named")
    }

    @Test func rowsOfOlderVersionsStayReadable() {
        // Plain sentences stored before details had keys are shown as written.
        let old = ActivityEntry(person: "local", address: "127.0.0.1", action: "register", productID: 5, detail: "Old mug")
        let row = Self.view.row(record(old))
        #expect(row.detail?.text == "Old mug")
        #expect(row.product?.label == "‘Old mug’")
        #expect(ActivityDetail(stored: "{not json") == nil)
        #expect(ActivityDetail(stored: ActivityDetail("x", ["a": "‘b’ / \"c\""]).stored) == ActivityDetail("x", ["a": "‘b’ / \"c\""]))
    }

    @Test func longValuesNeverBreakAStoredDetail() {
        let long = String(repeating: "긴 이름 ", count: 100)
        let stored = ActivityDetail("bulk", ["product_name": long, "reason": long, "reason_key": "bulk_reason_api",
                                             "action_key": "bulk_action_delete", "outcome_key": "bulk_outcome_failed"]).stored
        #expect(stored.count > ActivityLog.maxValueLength)
        let kept = ActivityLog.cutDetail(stored)
        #expect(kept == stored)
        let detail = ActivityDetail(stored: kept)
        #expect(detail?.arguments["product_name"]?.count == ActivityDetail.maxValueLength)
        // A plain sentence is still cut to the log's usual length.
        #expect(ActivityLog.cutDetail(long).count == ActivityLog.maxValueLength)
    }
}
