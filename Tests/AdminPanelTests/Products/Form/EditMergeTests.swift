import Testing
@testable import AdminPanel

@Suite struct EditMergeTests {
    static func values(name: String = "Original name", price: String = "12000", stock: String = "3",
                       discount: String = "0", thumbnail: String = "7") -> ProductFormValues {
        var values = ProductFormValues()
        values.name = name
        values.description = "A long enough description."
        values.price = price
        values.currency = "KRW"
        values.discountedPrice = discount
        values.stock = stock
        values.thumbnailID = thumbnail
        return values
    }

    /// Issue 13, exactly: the seller opened the form and changed only the price; a colleague renamed
    /// the product through the API; confirming the 409 must send the price alone.
    @Test func theIssuesSequenceEndsWithYourPriceAndTheirName() {
        let opened = Self.values()
        var yours = opened
        yours.price = "9900"
        let now = Self.values(name: "Colleague's name")

        #expect(EditMerge.changeSet(yours: yours, opened: opened) == [.price])
        #expect(EditMerge.conflicts(opened: opened, now: now) == [.name])

        let merged = EditMerge.merged(yours: yours, opened: opened, now: now)
        #expect(merged.name == "Colleague's name")
        #expect(merged.price == "9900")
        // The confirmation is compared with what the API has now: only the price goes out.
        #expect(EditMerge.changeSet(yours: merged, opened: now) == [.price])
        #expect(EditMerge.conflicts(opened: now, now: now).isEmpty)
    }

    @Test func bothChangingOneFieldKeepsYoursAndSendsIt() {
        let opened = Self.values()
        var yours = opened
        yours.stock = "5"
        let now = Self.values(stock: "9")
        let merged = EditMerge.merged(yours: yours, opened: opened, now: now)
        #expect(merged.stock == "5")
        #expect(EditMerge.changeSet(yours: merged, opened: now) == [.stock])
    }

    @Test func untouchedFieldsAreNeverSent() {
        let opened = Self.values()
        #expect(EditMerge.changeSet(yours: opened, opened: opened).isEmpty)
        // The same number written differently is not a change.
        var yours = opened
        yours.price = "12,000"
        yours.discountedPrice = ""
        yours.name = "Original name  "
        #expect(EditMerge.changeSet(yours: yours, opened: opened).isEmpty)
        // An unreadable number is a change (so its error is shown), not silently dropped.
        yours.stock = "lots"
        #expect(EditMerge.changeSet(yours: yours, opened: opened) == [.stock])
    }

    @Test func anUnknownThumbnailIsNotAConflict() {
        let opened = Self.values(thumbnail: "")
        let now = Self.values(thumbnail: "8")
        #expect(EditMerge.conflicts(opened: opened, now: now).isEmpty)
        #expect(EditMerge.conflicts(opened: Self.values(), now: now) == [.thumbnailID])
    }
}
