import Foundation
import OpenMarketCore
import Testing
@testable import AdminPanel

/// How a sale's period reads: its length in whole days when it spans whole days (a seller's
/// weekend is 2일, never 1일 23시간), in both languages, across daylight-saving changes; and the
/// form's times shown to the minute.
@Suite struct SaleTextTests {
    static let catalogs = Result { try StringCatalogs(directory: PanelHarness.repository.appendingPathComponent("Templates/strings")) }

    static func text(_ zone: String, _ language: Language) throws -> SaleText {
        SaleText(zone: try #require(TimeZone(identifier: zone)), l: Localizer(catalog: try catalogs.get()[language]))
    }

    static func length(_ zone: String, _ language: Language, _ start: String, _ end: String) throws -> String {
        let text = try text(zone, language)
        let from = try #require(SaleRules.parseLocalTime(start, zone: text.zone))
        let to = try #require(SaleRules.parseLocalTime(end, zone: text.zone))
        return text.length(from, to)
    }

    @Test func wholeDaysReadAsDaysInKoreanAndEnglish() throws {
        // Friday 00:00 to Monday 00:00.
        #expect(try Self.length("Asia/Seoul", .ko, "2026-11-27T00:00", "2026-11-30T00:00") == "3일")
        #expect(try Self.length("Asia/Seoul", .en, "2026-11-27T00:00", "2026-11-30T00:00") == "3 days")
        // A weekend booked to the last minute or second of Sunday.
        #expect(try Self.length("Asia/Seoul", .ko, "2026-11-28T00:00", "2026-11-29T23:59") == "2일")
        #expect(try Self.length("Asia/Seoul", .ko, "2026-11-28T00:00", "2026-11-29T23:59:59") == "2일")
        #expect(try Self.length("Asia/Seoul", .en, "2026-11-28T00:00", "2026-11-29T23:59:59") == "2 days")
        // One day, booked as the whole of it.
        #expect(try Self.length("Asia/Seoul", .en, "2026-11-28T00:00", "2026-11-28T23:59") == "1 day")
        #expect(try Self.length("Asia/Seoul", .ko, "2026-11-28T09:00", "2026-11-29T09:00") == "1일")
        // A month and a year stay months and years.
        #expect(try Self.length("Asia/Seoul", .ko, "2026-12-01T00:00", "2026-12-31T23:59") == "1개월")
        #expect(try Self.length("Asia/Seoul", .en, "2026-11-27T00:00", "2036-11-27T00:00") == "10 years")
    }

    @Test func periodsThatAreNotWholeDaysKeepTheirHoursAndMinutes() throws {
        #expect(try Self.length("Asia/Seoul", .en, "2026-11-27T00:00", "2026-11-29T23:58") == "2 days 23 hours")
        #expect(try Self.length("Asia/Seoul", .ko, "2026-11-27T10:00", "2026-11-27T12:30") == "2시간 30분")
        #expect(try Self.length("Asia/Seoul", .en, "2026-11-27T10:00", "2026-11-27T10:59") == "59 minutes")
        #expect(try Self.length("Asia/Seoul", .en, "2026-11-27T10:00", "2026-11-27T10:00:05") == "5 seconds")
        // Less than a day is never rounded up to one.
        #expect(try Self.length("Asia/Seoul", .ko, "2026-11-27T00:00", "2026-11-27T23:58") == "23시간 58분")
    }

    @Test func aDaylightSavingChangeStillCountsAsOneDay() throws {
        // New York springs forward on Sunday 2027-03-14 (a day of 23 hours); Berlin on 2027-03-28.
        #expect(try Self.length("America/New_York", .en, "2027-03-12T00:00", "2027-03-15T00:00") == "3 days")
        #expect(try Self.length("America/New_York", .en, "2027-03-13T00:00", "2027-03-14T23:59") == "2 days")
        #expect(try Self.length("Europe/Berlin", .ko, "2027-03-26T00:00", "2027-03-29T00:00") == "3일")
        #expect(try Self.length("Europe/Berlin", .ko, "2027-03-27T00:00", "2027-03-28T23:59:59") == "2일")
        // And falls back on 2027-11-07 (25 hours).
        #expect(try Self.length("America/New_York", .en, "2027-11-06T00:00", "2027-11-07T23:59") == "2 days")
    }

    @Test func formTimesAreShownToTheMinute() {
        #expect(SaleForm.minuteValue("2026-12-05T00:00:00") == "2026-12-05T00:00")
        #expect(SaleForm.minuteValue("2026-12-05T23:59") == "2026-12-05T23:59")
        // Seconds a person (or a tool) typed stay: the server takes them.
        #expect(SaleForm.minuteValue("2026-12-05T23:59:59") == "2026-12-05T23:59:59")
        #expect(SaleForm.minuteValue("tomorrow:00") == "tomorrow:00")
        #expect(SaleForm.minuteValue("") == "")
    }
}
