import CJPEG
import CPNG
import Foundation
import OpenMarketCore

/// Photos over the API's 300 KB made to fit by the panel itself, the way the browser script
/// does it: decode, turn upright (EXIF), then encode at quality 90, 80, 70, 60, 50, and after
/// that shrink the longest side by a fifth at a time, until the file is at most `maxBytes`.
/// The first size tried is the script's: at most 2,048 px a side and about six bytes of input per
/// byte of output. JPEG stays JPEG; an opaque PNG becomes a JPEG (a photo saved as PNG would
/// otherwise need to shrink to a thumbnail), a PNG with transparency stays PNG and only shrinks.
/// Used by the import, by register without JS and by duplicate.
enum ImageShrinker {
    enum Failure: Error, Equatable {
        /// GIF, WebP or anything else over the limit: the panel has no encoder for it.
        case unsupported
        case unreadable
        case cannotFit
    }

    struct Result: Sendable, Equatable {
        var filename: String
        var data: Data
    }

    static let maxSide = 2_048

    /// The file as it is when it fits; else a smaller JPEG or PNG.
    static func fit(_ data: Data, filename: String, maxBytes: Int = ProductRules.maxImageBytes) throws(Failure) -> Result {
        guard data.count > maxBytes else { return Result(filename: filename, data: data) }
        // The script's first size: six bytes of input per byte of output, at most `maxSide`.
        let firstScale = min(1, (Double(maxBytes) * 6 / Double(data.count)).squareRoot())
        let image: PixelImage
        switch ImageFormat.detect(data) {
        case .jpeg?:
            let bytes = [UInt8](data)
            image = try decodeJPEG(bytes, scale: firstScale).upright(ExifOrientation.read(bytes))
        case .png?:
            image = try decodePNG(data)
        default:
            throw .unsupported
        }
        let asPNG = image.hasTransparency
        var source = asPNG ? image : image.rgb
        var scale = min(firstScale * Double(image.sourceLongest) / Double(max(source.width, source.height)),
                        Double(maxSide) / Double(max(source.width, source.height)), 1)
        var quality = 90
        var resized = source
        var resizedScale = -1.0
        for _ in 0..<24 {
            if scale != resizedScale {
                let width = max(1, WholeNumber.clamped(Double(source.width) * scale))
                let height = max(1, WholeNumber.clamped(Double(source.height) * scale))
                resized = source.scaled(toWidth: width, height: height)
                // Later, smaller steps start from this one (a fifth less each time).
                (source, scale, resizedScale) = (resized, 1, 1)
            }
            let encoded = asPNG ? try encodePNG(resized) : try encodeJPEG(resized, quality: quality)
            if encoded.count <= maxBytes {
                return Result(filename: asPNG ? filename : renamed(filename, to: "jpg"), data: encoded)
            }
            if !asPNG, quality > 55 { quality -= 10 } else { scale *= 0.8 }
        }
        throw .cannotFit
    }

    /// `photo.png` → `photo.jpg` (the file's content changed type).
    static func renamed(_ filename: String, to ext: String) -> String {
        let lower = filename.lowercased()
        if lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") { return filename }
        if let dot = filename.lastIndex(of: "."), dot != filename.startIndex {
            return String(filename[..<dot]) + "." + ext
        }
        return filename + "." + ext
    }

    // MARK: codecs

    /// Decodes with libjpeg's DCT scaling to the smallest of 1/1, 1/2, 1/4, 1/8 that still has
    /// the pixels `scale` (of the full size) needs (a 12 MP photo decodes at a quarter of the work).
    static func decodeJPEG(_ bytes: [UInt8], scale: Double = 1) throws(Failure) -> PixelImage {
        var width: Int32 = 0, height: Int32 = 0
        guard om_jpeg_size(bytes, UInt(bytes.count), &width, &height) == 0, width > 0, height > 0 else { throw .unreadable }
        guard ProductRules.pixelIssue(file: "", ImageDimensions(width: Int(width), height: Int(height))) == nil else {
            throw .unreadable
        }
        let longest = Int(max(width, height))
        let needed = min(Double(maxSide), Double(longest) * scale)
        var denominator: Int32 = 1
        while denominator < 8, Double(longest) / Double(denominator * 2) >= needed { denominator *= 2 }
        var pointer: UnsafeMutablePointer<UInt8>?
        guard om_jpeg_decode(bytes, UInt(bytes.count), denominator, &pointer, &width, &height) == 0, let pointer else {
            throw .unreadable
        }
        defer { free(pointer) }
        let count = Int(width) * Int(height) * 3
        var image = PixelImage(width: Int(width), height: Int(height), channels: 3,
                               pixels: Array(UnsafeBufferPointer(start: pointer, count: count)))
        image.sourceLongest = longest
        return image
    }

    static func encodeJPEG(_ image: PixelImage, quality: Int) throws(Failure) -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            om_jpeg_encode(pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(quality), &output, &length)
        }
        guard status == 0, let output else { throw .unreadable }
        defer { free(output) }
        return Data(bytes: output, count: Int(length))
    }

    static func decodePNG(_ data: Data) throws(Failure) -> PixelImage {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let begun = data.withUnsafeBytes { raw in
            png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
        }
        guard begun != 0 else { throw .unreadable }
        guard ProductRules.pixelIssue(file: "", ImageDimensions(width: Int(image.width), height: Int(image.height))) == nil else {
            png_image_free(&image)
            throw .unreadable
        }
        image.format = OM_PNG_FORMAT_RGBA
        let count = Int(image.width) * Int(image.height) * 4
        var pixels = [UInt8](repeating: 0, count: count)
        let finished = data.withUnsafeBytes { _ in
            pixels.withUnsafeMutableBufferPointer { buffer in
                png_image_finish_read(&image, nil, buffer.baseAddress, 0, nil)
            }
        }
        guard finished != 0 else {
            png_image_free(&image)
            throw .unreadable
        }
        return PixelImage(width: Int(image.width), height: Int(image.height), channels: 4, pixels: pixels)
    }

    static func encodePNG(_ source: PixelImage) throws(Failure) -> Data {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(source.width)
        image.height = UInt32(source.height)
        image.format = source.channels == 4 ? OM_PNG_FORMAT_RGBA : OM_PNG_FORMAT_RGB
        var size: Int = 0
        let measured = source.pixels.withUnsafeBufferPointer { pixels in
            png_image_write_to_memory(&image, nil, &size, 0, pixels.baseAddress, 0, nil)
        }
        guard measured != 0, size > 0 else { throw .unreadable }
        var output = [UInt8](repeating: 0, count: size)
        let written = source.pixels.withUnsafeBufferPointer { pixels in
            output.withUnsafeMutableBufferPointer { buffer in
                png_image_write_to_memory(&image, buffer.baseAddress, &size, 0, pixels.baseAddress, 0, nil)
            }
        }
        guard written != 0 else { throw .unreadable }
        return Data(output[..<size])
    }
}
