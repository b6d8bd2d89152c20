import Testing
@testable import AdminPanel

/// The open states kept for list pages: kept until the table changes, and never kept from a read
/// that a write overtook.
@Suite struct OpenSaleStatesTests {
    @Test func keptUntilTheTableChanges() {
        let kept = OpenSaleStates()
        let first = kept.lookup()
        #expect(first.states == nil)
        kept.keep([7: .running], readAt: first.generation)
        #expect(kept.lookup().states == [7: .running])
        kept.changed()
        #expect(kept.lookup().states == nil)
    }

    @Test func aReadThatAWriteOvertookIsNotKept() {
        let kept = OpenSaleStates()
        let read = kept.lookup()          // a page starts reading …
        kept.changed()                    // … a sale is scheduled meanwhile …
        kept.keep([:], readAt: read.generation)   // … and the page's older answer arrives.
        #expect(kept.lookup().states == nil)
        let again = kept.lookup()
        kept.keep([3: .scheduled], readAt: again.generation)
        #expect(kept.lookup().states == [3: .scheduled])
    }
}
