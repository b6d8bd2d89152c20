import Foundation
import Testing
@testable import OpenMarketCore

@Suite struct DateTests {
    @Test func bothDialectFormatsAreUTC() {
        #expect(OpenMarketJSON.parseDate("2022-01-04T00:00:00.00") == utcDay(2022, 1, 4))
        #expect(OpenMarketJSON.parseDate("2022-11-16T00:00:00") == utcDay(2022, 11, 16))
        #expect(OpenMarketJSON.parseDate("2022-11-16T00:00:00") == Date(timeIntervalSince1970: 1_668_556_800))
    }

    @Test func timeFractionAndZoneMarker() {
        let base = utcDay(2024, 2, 29)
        #expect(OpenMarketJSON.parseDate("2024-02-29T13:45:07") == base.addingTimeInterval(13 * 3600 + 45 * 60 + 7))
        #expect(OpenMarketJSON.parseDate("2024-02-29T00:00:01.5Z") == base.addingTimeInterval(1.5))
        #expect(OpenMarketJSON.parseDate("2024-02-29 00:00:00.250") == base.addingTimeInterval(0.25))
        #expect(OpenMarketJSON.parseDate("2024-02-29") == base)
        #expect(OpenMarketJSON.parseDate("1969-12-31T23:59:59") == Date(timeIntervalSince1970: -1))
    }

    @Test(arguments: ["", "2022", "2022-1-04T00:00:00", "2022-02-30T00:00:00", "2023-02-29", "2022-13-01",
                      "2022-00-10", "2022-01-04T24:00:00", "2022-01-04T00:60:00", "2022-01-04T00:00:00.",
                      "2022-01-04T00:00:00.00+09:00", "2022-01-04X00:00:00", "2022-01-04T00:00", "yesterday",
                      "２０２２-01-04", " 2022-01-04"])
    func invalidDatesAreRefused(text: String) {
        #expect(OpenMarketJSON.parseDate(text) == nil)
    }

    @Test func formattingFollowsTheDialect() {
        let date = utcDay(2022, 5, 14).addingTimeInterval(3 * 3600 + 4 * 60 + 5.9)
        #expect(OpenMarketJSON.formatDate(date, dialect: .v2a) == "2022-05-14T03:04:05.00")
        #expect(OpenMarketJSON.formatDate(date, dialect: .v2b) == "2022-05-14T03:04:05")
        #expect(OpenMarketJSON.formatDate(Date(timeIntervalSince1970: -1), dialect: .v2b) == "1969-12-31T23:59:59")
    }

    @Test func formatAndParseRoundTripOverManyDays() {
        var day = utcDay(1999, 12, 25)
        for _ in 0..<800 {
            for dialect in [Dialect.v2a, .v2b] {
                #expect(OpenMarketJSON.parseDate(OpenMarketJSON.formatDate(day, dialect: dialect)) == day)
            }
            day = day.addingTimeInterval(86_400 * 13 + 3_661)
        }
    }
}
