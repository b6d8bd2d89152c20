import HTTPServer

/// The order of the images kept after an error lives in the form, so the seller's choices survive
/// every round trip without touching the staging store. The first image is the thumbnail.
///
/// Two fields carry it: `staged_order` (one hidden input per image, in the order shown) and
/// `staged_position_ID` (a position menu per image, 1 = first). Without JS the seller picks
/// positions and they apply when the form is sent; with JS the ←/→ buttons move the images in
/// place and keep the menus in step. The menus are not submit buttons: an order button that
/// submits would be the form's first submit button, the one Enter in a text field presses.
enum StagedOrder {
    /// `images` in the form's order, then moved to the positions the seller chose.
    static func apply(_ images: [StagedImage], fields: FormFields) -> [StagedImage] {
        let order = fields.all("staged_order").compactMap { Int($0) }
        var chosen: [Int: Int] = [:]
        for image in images {
            if let position = fields["staged_position_\(image.id)"].flatMap({ Int($0) }) { chosen[image.id] = position }
        }
        return apply(images, order: order, positions: chosen)
    }

    /// Images the form does not list (just added) go last, in the order they were staged. An image
    /// whose chosen position (1-based) differs from where it is shown is taken out and put there,
    /// the lowest position first; the others keep their order around it.
    static func apply(_ images: [StagedImage], order: [Int], positions: [Int: Int]) -> [StagedImage] {
        var rank: [Int: Int] = [:]
        for (index, id) in order.enumerated() where rank[id] == nil { rank[id] = index }
        let shown = images.enumerated().sorted { a, b in
            (rank[a.element.id] ?? order.count + a.offset, a.offset) < (rank[b.element.id] ?? order.count + b.offset, b.offset)
        }.map(\.element)
        var moved: [(position: Int, image: StagedImage)] = []
        var result: [StagedImage] = []
        for (index, image) in shown.enumerated() {
            if let position = positions[image.id], position != index + 1 {
                moved.append((position, image))
            } else {
                result.append(image)
            }
        }
        for (position, image) in moved.sorted(by: { $0.position < $1.position }) {
            result.insert(image, at: min(max(position - 1, 0), result.count))
        }
        return result
    }
}
