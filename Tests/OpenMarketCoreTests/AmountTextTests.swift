import Testing
@testable import OpenMarketCore

@Suite struct AmountTextTests {
    @Test(arguments: [
        ("12000", 12_000.0), ("12,000", 12_000), ("₩12,000", 12_000), ("12,000원", 12_000), (" 12,000 원 ", 12_000),
        ("+1,000", 1_000), ("-500", -500), ("−500", -500), ("$12.50", 12.5), ("1,234,567.5", 1_234_567.5), ("0", 0),
    ])
    func sellersWritingIsRead(text: String, amount: Double) {
        #expect(AmountText.parse(text) == amount)
    }

    @Test(arguments: ["", "abc", "12,00", "1,2,3", "1234,567", ",000", "12.", ".5", "1.2.3", "12 000", "₩", "++1", "1e5", "nan", "١٢"])
    func otherTextIsNotAnAmount(text: String) {
        #expect(AmountText.parse(text) == nil)
    }

    @Test func wonAreWholeAndDollarsHaveCents() {
        #expect(AmountText.hasFractionBeyond(.KRW, 12_000.5))
        #expect(!AmountText.hasFractionBeyond(.KRW, 12_000))
        #expect(!AmountText.hasFractionBeyond(.USD, 12.5))
        #expect(!AmountText.hasFractionBeyond(.USD, 0.29))
        #expect(AmountText.hasFractionBeyond(.USD, 12.505))
    }
}
