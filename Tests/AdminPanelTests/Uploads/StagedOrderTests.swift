import HTTPServer
import Testing
@testable import AdminPanel

/// The order of the images kept after an error: the form's order, then the positions chosen in
/// the menus (the no-JS way to reorder them; with JS the menus follow the ←/→ buttons).
@Suite struct StagedOrderTests {
    static let images = (1...4).map { StagedImage(id: $0, filename: "\($0).png", format: .png, size: 1, path: "") }

    static func ids(_ order: [Int], _ positions: [Int: Int]) -> [Int] {
        StagedOrder.apply(images, order: order, positions: positions).map(\.id)
    }

    @Test func chosenPositionsMoveImagesAndTheOthersKeepTheirOrder() {
        #expect(Self.ids([1, 2, 3, 4], [:]) == [1, 2, 3, 4])
        #expect(Self.ids([1, 2, 3, 4], [1: 1, 2: 2, 3: 3, 4: 4]) == [1, 2, 3, 4])   // menus as shown: no change
        #expect(Self.ids([1, 2, 3, 4], [4: 1]) == [4, 1, 2, 3])
        #expect(Self.ids([1, 2, 3, 4], [1: 3]) == [2, 3, 1, 4])
        #expect(Self.ids([1, 2, 3, 4], [1: 4, 4: 1]) == [4, 2, 3, 1])
        #expect(Self.ids([4, 3, 2, 1], [2: 1]) == [2, 4, 3, 1])   // positions count in the order shown
    }

    @Test func nonsenseAndMissingEntriesDoNoHarm() {
        #expect(Self.ids([1, 2, 3, 4], [2: 99, 3: -5]) == [3, 1, 4, 2])
        #expect(Self.ids([1, 2, 3, 4], [9: 1]) == [1, 2, 3, 4])
        #expect(Self.ids([3, 3, 9], [:]) == [3, 1, 2, 4])   // unlisted images (just added) go last
        let fields = FormFields([("staged_order", "1"), ("staged_order", "2"), ("staged_order", "x"),
                                 ("staged_position_2", "1"), ("staged_position_3", "first")])
        #expect(StagedOrder.apply(Self.images, fields: fields).map(\.id) == [2, 1, 3, 4])
    }
}
