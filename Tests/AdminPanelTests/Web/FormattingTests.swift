import Foundation
import Testing
import OpenMarketCore
@testable import AdminPanel

@Suite struct FormattingTests {
    @Test func wonHasNoFractionAndGroupsThousands() {
        #expect(Money.format(12000, .KRW) == "₩12,000")
        #expect(Money.format(1_234_567, .KRW) == "₩1,234,567")
        #expect(Money.format(999, .KRW) == "₩999")
        #expect(Money.format(0, .KRW) == "₩0")
    }

    @Test func dollarsShowCents() {
        #expect(Money.format(12.5, .USD) == "$12.50")
        #expect(Money.format(1234.05, .USD) == "$1,234.05")
        #expect(Money.format(0.99, .USD) == "$0.99")
        #expect(Money.format(60_000_000, .USD) == "$60,000,000.00")
        #expect(Money.format(999.995, .USD) == "$1,000.00")
        #expect(Money.format(100, .USD) == "$100.00")
        #expect(Money.grouped(-1234.5, fractionDigits: 2) == "−1,234.50")
        #expect(Money.grouped(.nan, fractionDigits: 0) == "–")
    }

    /// Every digit count, both signs, with and without cents: the same as grouping the
    /// `%.0f`/`%.2f` text by hand.
    @Test func groupingMatchesTheFormattedDigits() {
        func byHand(_ amount: Double, _ fractionDigits: Int) -> String {
            let text = String(format: "%.\(fractionDigits)f", abs(amount))
            let parts = text.split(separator: ".")
            var whole = ""
            for (offset, digit) in parts[0].reversed().enumerated() {
                if offset > 0, offset % 3 == 0 { whole.append(",") }
                whole.append(digit)
            }
            let sign = amount < 0 && text.contains(where: { $0 != "0" && $0 != "." }) ? "−" : ""
            return sign + String(whole.reversed()) + (parts.count > 1 ? "." + parts[1] : "")
        }
        var amount = 7.0
        for _ in 0..<13 {   // up to 7.3e12: cents stay exact in a Double
            for value in [amount, amount + 0.25, -amount, -(amount + 0.75)] {
                for digits in [0, 2] {
                    #expect(Money.grouped(value, fractionDigits: digits) == byHand(value, digits), "\(value), \(digits)")
                }
            }
            amount = amount * 10 + 3
        }
    }

    @Test func inputValuesDropNeedlessFractions() {
        #expect(Money.inputValue(3500) == "3500")
        #expect(Money.inputValue(12.5) == "12.5")
        #expect(Money.inputValue(6.0e7) == "60000000")
    }

    @Test func datesAreDayPrecisionInUTC() {
        let date = OpenMarketJSON.parseDate("2022-10-18T00:00:00")!
        #expect(LanguageTests.en.date(date) == "Oct 18, 2022")
        #expect(DisplayDate.iso(date) == "2022-10-18")
    }

    @Test func paginationShowsEndsAndNeighboursWithGaps() {
        #expect(Pagination.numbers(current: 1, last: 1) == [])
        #expect(Pagination.numbers(current: 1, last: 3) == [1, 2, 3])
        #expect(Pagination.numbers(current: 10, last: 20) == [1, nil, 8, 9, 10, 11, 12, nil, 20])
        #expect(Pagination.numbers(current: 2, last: 9) == [1, 2, 3, 4, nil, 9])
    }

    @Test func listLinksCarryPageViewAndEncodedSearch() {
        var links = CatalogQuery()
        links.view = .grid
        links.search = "우유 & cup"
        #expect(links.url(page: 2) == "/products?page=2&view=grid&q=%EC%9A%B0%EC%9C%A0%20%26%20cup")
        #expect(links.url(page: 1, view: .list).hasPrefix("/products?page=1&view=list"))
    }

    @Test func formNumbersAcceptGroupingAndRejectText() {
        #expect(ProductFormValues.number("12,000") == 12000)
        #expect(ProductFormValues.number("12.50") == 12.5)
        #expect(ProductFormValues.number("abc") == nil)
        #expect(ProductFormValues.number("") == nil)
        #expect(ProductFormValues.number("inf") == nil)
    }

    @Test func parseReportsUnreadableNumbersOnTheirFields() {
        let values = ProductFormValues { ["price": "twelve", "stock": "1.5", "currency": "EUR", "discounted_price": "x"][$0] }
        let fields = values.parse().issues.map(\.field)
        #expect(fields.contains("price"))
        #expect(fields.contains("stock"))
        #expect(fields.contains("currency"))
        #expect(fields.contains("discounted_price"))
    }

    @Test func safeFilenamesKeepOnlyTheLastComponent() {
        #expect(ImageStager.safeFilename("C:\\Users\\me\\photo.jpg") == "photo.jpg")
        #expect(ImageStager.safeFilename("../../etc/passwd") == "passwd")
        #expect(ImageStager.safeFilename("a\u{0}b\nc.png") == "abc.png")
        #expect(ImageStager.safeFilename("") == "image")
    }

    @Test func nextAfterSignInStaysOnThisSite() {
        #expect(SessionController.safeNext("/products/3") == "/products/3")
        #expect(SessionController.safeNext("//evil.example/") == "/products")
        #expect(SessionController.safeNext("https://evil.example/") == "/products")
        #expect(SessionController.safeNext(nil) == "/products")
        // Browsers strip tabs and newlines from URLs: these would turn into `//evil.example`.
        #expect(SessionController.safeNext("/\t/evil.example/") == "/products")
        #expect(SessionController.safeNext("/\n/evil.example/") == "/products")
    }
}

@Suite struct MediaLinkTests {
    let links = MediaLinks(apiBaseURL: URL(string: "http://127.0.0.1:8081")!)

    @Test func imagesOnTheAPIOriginMapToMediaPaths() {
        #expect(links.panelPath(for: "http://127.0.0.1:8081/media/3/a.png") == "/media/media/3/a.png")
        #expect(links.panelPath(for: "http://localhost:8081/images/x%20y.jpg") == "/media/images/x%20y.jpg")
    }

    @Test func otherOriginsAreNotMapped() {
        #expect(links.panelPath(for: "http://127.0.0.1:9999/a.png") == nil)
        #expect(links.panelPath(for: "https://127.0.0.1:8081/a.png") == nil)
        #expect(links.panelPath(for: "https://evil.example/a.png") == nil)
        #expect(links.panelPath(for: "not a url") == nil)
    }

    @Test func configuredMediaOriginsGetTheirOwnPrefix() {
        let links = MediaLinks(apiBaseURL: URL(string: "http://127.0.0.1:8081")!,
                               extraOrigins: [URL(string: "https://s3.example.com")!])
        #expect(links.panelPath(for: "https://s3.example.com/bucket/a.jpg") == "/media/_o1/bucket/a.jpg")
        #expect(links.panelPath(for: "https://other.example.com/bucket/a.jpg") == nil)
        #expect(links.upstreamURL(forPath: "_o1/bucket/a.jpg")?.absoluteString == "https://s3.example.com/bucket/a.jpg")
        #expect(links.upstreamURL(forPath: "_o2/bucket/a.jpg") == nil)
        #expect(links.upstreamURL(forPath: "_o1") == nil)
        #expect(self.links.upstreamURL(forPath: "_o1/x")?.absoluteString == "http://127.0.0.1:8081/_o1/x")
    }

    @Test func upstreamURLsStayOnTheAPIOriginAndRefuseDotSegments() {
        #expect(links.upstreamURL(forPath: "media/3/a b.png")?.absoluteString == "http://127.0.0.1:8081/media/3/a%20b.png")
        #expect(links.upstreamURL(forPath: "../secret") == nil)
        #expect(links.upstreamURL(forPath: "a/./b") == nil)
        #expect(links.upstreamURL(forPath: "@evil.example/x")?.host == "127.0.0.1")
        #expect(links.upstreamURL(forPath: "x?y=1")?.query == nil)
    }
}
