import CPNG
import Foundation
import OpenMarketCore

/// A PNG decoded row by row with libpng, each row averaged into the size wanted as it comes, so
/// the full-size image is never held: memory is one row of the file plus the smaller image.
///
/// An interlaced (Adam7) PNG sends its pixels in seven passes, each a sparse subset of the rows,
/// so no target row is finished before the last pass: its rows go straight into sums of the whole
/// target, by their place in the image (area averaging does not care in which order pixels
/// come). Those sums take four bytes per target sample; a target that would need more than half
/// the pixel budget is made smaller first (the shrinker's later steps only shrink further).
enum PNGDecoder {
    /// Decodes `data` to the size `target` chooses from the stored size (nil: decode and check
    /// only). RGBA only when a pixel is translucent, else RGB. Throws unless every row was in the file.
    static func decode(_ data: Data, target: (ImageDimensions) throws(ImageShrinker.Failure) -> ImageDimensions?) throws(ImageShrinker.Failure) -> PixelImage? {
        let outcome = data.withUnsafeBytes { raw -> Result<PixelImage?, ImageShrinker.Failure> in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count > 0 else { return .failure(.unreadable) }
            return Result { () throws(ImageShrinker.Failure) in try decode(base, count: raw.count, target: target) }
        }
        return try outcome.get()
    }

    private static func decode(_ bytes: UnsafePointer<UInt8>, count: Int,
                               target choose: (ImageDimensions) throws(ImageShrinker.Failure) -> ImageDimensions?) throws(ImageShrinker.Failure) -> PixelImage? {
        var width: Int32 = 0, height: Int32 = 0, channels: Int32 = 0, interlaced: Int32 = 0, status: Int32 = 0
        guard let reader = om_png_open(bytes, count, Int32(ProductRules.maxImageSide), &width, &height, &channels, &interlaced, &status) else {
            throw .overMemory
        }
        defer { om_png_close(reader) }
        try check(status)
        let stored = ImageDimensions(width: Int(width), height: Int(height))
        try ImageShrinker.checkPixelRules(stored)
        let passes = interlaced != 0 ? 7 : 1
        let averager = try choose(stored).map { wanted throws(ImageShrinker.Failure) in
            let target = passes > 1 ? fitting(wanted, channels: Int(channels)) : wanted
            return try AreaAverager(source: stored, target: target, channels: Int(channels), rowsInAnyOrder: passes > 1)
        }
        let row = UnsafeMutablePointer<UInt8>.allocate(capacity: stored.width * Int(channels))
        defer { row.deallocate() }
        for pass in 0..<passes {
            var startX: Int32 = 0, stepX: Int32 = 1, startY: Int32 = 0, stepY: Int32 = 1, columns = width, rows = height
            if passes > 1 { om_png_pass(Int32(pass), width, height, &startX, &stepX, &startY, &stepY, &columns, &rows) }
            for index in 0..<Int(rows) {
                try check(om_png_read_row(reader, row))
                averager?.add(row, count: Int(columns), y: Int(startY) + index * Int(stepY), firstX: Int(startX), stepX: Int(stepX))
            }
        }
        return averager?.finish()
    }

    /// The target, smaller if its whole-image sums would take more than half the pixel budget.
    static func fitting(_ target: ImageDimensions, channels: Int) -> ImageDimensions {
        let allowed = ImageShrinker.pixelBudget / 2
        let needed = AreaAverager.memory(for: target, channels: channels, rowsInAnyOrder: true)
        guard needed > allowed else { return target }
        let factor = (Double(allowed) / Double(needed)).squareRoot()
        return ImageDimensions(width: max(1, WholeNumber.clamped(Double(target.width) * factor, rounding: .down)),
                               height: max(1, WholeNumber.clamped(Double(target.height) * factor, rounding: .down)))
    }

    private static func check(_ status: Int32) throws(ImageShrinker.Failure) {
        switch status {
        case OM_PNG_OK: return
        case OM_PNG_INCOMPLETE: throw .incomplete
        default: throw .unreadable
        }
    }
}
