import Foundation

/// What a posted sheet brings back onto the page: the seller's typed and loaded values, and per
/// cell the error, the conflict or the save; per row a failure. A GET has none of it.
struct SheetState: Sendable {
    struct Cell: Hashable, Sendable {
        var id: Int
        var field: SheetField
    }

    var typed: [Cell: String] = [:]
    var was: [Cell: String] = [:]
    var errors: [Cell: String] = [:]
    var conflicts: [Cell: String] = [:]
    var saved: Set<Cell> = []
    var failures: [Int: String] = [:]
    /// Posted rows in their order, so a product gone from the page (deleted meanwhile) still shows.
    var rowOrder: [Int] = []
    var outcome: SheetOutcomeView?
    var problems: SheetProblemsView?

    /// True when a save brought something back (a GET's sheet has nothing to lay over).
    var isPosted: Bool { !rowOrder.isEmpty || outcome != nil }

    /// Keeps every posted value of these rows.
    mutating func keep(_ rows: [SheetRowInput]) {
        for row in rows {
            rowOrder.append(row.id)
            for (field, text) in row.typed { typed[Cell(id: row.id, field: field)] = text }
            for (field, text) in row.was { was[Cell(id: row.id, field: field)] = text }
        }
    }

    /// After a save: the product's saved and unchanged cells show the product as it is now; only
    /// conflicting cells keep what the seller typed.
    mutating func settle(_ id: Int) {
        for field in SheetField.allCases {
            let cell = Cell(id: id, field: field)
            guard conflicts[cell] == nil, errors[cell] == nil else { continue }
            typed[cell] = nil
            was[cell] = nil
        }
    }
}
