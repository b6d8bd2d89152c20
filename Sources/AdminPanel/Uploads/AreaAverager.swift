import CAreaAverage
import OpenMarketCore

/// Where the decoders put their rows: a smaller image made as the rows arrive, each target pixel
/// the average of its box of source pixels (see `area_average.h`), so the full-size image is
/// never in memory. Rows come top to bottom, or in any order (`rowsInAnyOrder`: interlaced PNG
/// passes), for which the sums of the whole target are held instead of one row's.
final class AreaAverager {
    let target: ImageDimensions
    let channels: Int
    private let area: UnsafeMutablePointer<om_area>

    /// Bytes held for a target of this size, beyond the rows being added.
    static func memory(for target: ImageDimensions, channels: Int, rowsInAnyOrder: Bool) -> Int {
        let samples = target.pixelCount * channels
        return samples + (rowsInAnyOrder ? samples : target.width * channels) * MemoryLayout<UInt32>.size
    }

    /// `target` is no larger than `source` on either side (it is clamped to it).
    init(source: ImageDimensions, target wanted: ImageDimensions, channels: Int, rowsInAnyOrder: Bool) throws(ImageShrinker.Failure) {
        let target = ImageDimensions(width: max(1, min(wanted.width, source.width)), height: max(1, min(wanted.height, source.height)))
        guard let area = om_area_create(Int32(source.width), Int32(source.height), Int32(target.width), Int32(target.height),
                                        Int32(channels), rowsInAnyOrder ? 1 : 0) else {
            throw .overMemory
        }
        self.area = area
        self.target = target
        self.channels = channels
    }

    deinit { om_area_free(area) }

    /// `count` pixels of source row `y` at columns `firstX`, `firstX + stepX`, …
    func add(_ pixels: UnsafePointer<UInt8>, count: Int, y: Int, firstX: Int = 0, stepX: Int = 1) {
        om_area_add(area, pixels, Int32(count), Int32(y), Int32(firstX), Int32(stepX))
    }

    /// The smaller image once every row was added; RGB when no source pixel was translucent.
    func finish() -> PixelImage {
        let pixels = om_area_finish(area)!
        let channels = Int(area.pointee.channels)
        return PixelImage(width: target.width, height: target.height, channels: channels,
                          pixels: Array(UnsafeBufferPointer(start: pixels, count: target.pixelCount * channels)))
    }
}
