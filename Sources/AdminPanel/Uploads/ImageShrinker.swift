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
///
/// Whatever the image (up to the pixel rules' 40 MP), its pixels take at most `pixelBudget`: the
/// decoders deliver the first size directly, row by row (JPEG by DCT scaling, PNG by averaging
/// rows as they come), so the full-size image never exists. A JPEG or PNG is sent only when it
/// decodes completely, so files within the limit are decoded too, only to check them.
enum ImageShrinker {
    enum Failure: Error, Equatable {
        /// GIF, WebP or anything else over the limit: the panel has no encoder for it.
        case unsupported
        case unreadable
        /// The file ends early or its data is damaged: part of the picture is missing.
        case incomplete
        /// Wider, taller or more pixels than the API's pixel rules allow.
        case outsidePixelRules(ImageDimensions)
        /// Decoding would need more than `pixelBudget` (a large progressive JPEG keeps every DCT
        /// coefficient of the image until its last scan).
        case overMemory
        case cannotFit
    }

    struct Result: Sendable, Equatable {
        var filename: String
        var data: Data
    }

    static let maxSide = 2_048
    /// Memory one shrink may give to pixels and the decoder's buffers. The largest first size
    /// (2,048 × 2,048 RGBA) takes 16 MiB, and the encoding steps hold at most three such images.
    static let pixelBudget = 64 << 20

    /// The file as it is when it fits (a JPEG or PNG only once it decoded completely); else a
    /// smaller JPEG or PNG.
    static func fit(_ data: Data, filename: String, maxBytes: Int = ProductRules.maxImageBytes) throws(Failure) -> Result {
        let format = ImageFormat.detect(data)
        if let size = ImageDimensions.read(data) { try checkPixelRules(size) }
        guard data.count > maxBytes else {
            try checkComplete(data, format: format)
            return Result(filename: filename, data: data)
        }
        // The script's first size: six bytes of input per byte of output, at most `maxSide`.
        let firstScale = min(1, (Double(maxBytes) * 6 / Double(data.count)).squareRoot())
        let firstSize = { (stored: ImageDimensions) throws(Failure) -> ImageDimensions? in
            firstSizeOf(stored, scale: firstScale)
        }
        var image: PixelImage
        switch format {
        case .jpeg?:
            guard let decoded = try JPEGDecoder.decode(data, target: firstSize) else { throw .unreadable }
            image = decoded.upright(ExifOrientation.read([UInt8](data)))
        case .png?:
            guard let decoded = try PNGDecoder.decode(data, target: firstSize) else { throw .unreadable }
            image = decoded
        default:
            throw .unsupported
        }
        let asPNG = image.channels == 4
        var quality = 90
        for _ in 0..<24 {
            let encoded = asPNG ? try encodePNG(image) : try encodeJPEG(image, quality: quality)
            if encoded.count <= maxBytes {
                return Result(filename: asPNG ? filename : renamed(filename, to: "jpg"), data: encoded)
            }
            if !asPNG, quality > 55 {
                quality -= 10
            } else {
                image = image.scaled(toWidth: max(1, WholeNumber.clamped(Double(image.width) * 0.8)),
                                     height: max(1, WholeNumber.clamped(Double(image.height) * 0.8)))
            }
        }
        throw .cannotFit
    }

    /// A JPEG or PNG decoded to the end, its pixels thrown away; other formats are not checked.
    static func checkComplete(_ data: Data, format: ImageFormat?) throws(Failure) {
        let nothing = { (_: ImageDimensions) throws(Failure) -> ImageDimensions? in nil }
        switch format {
        case .jpeg?: _ = try JPEGDecoder.decode(data, target: nothing)
        case .png?: _ = try PNGDecoder.decode(data, target: nothing)
        default: return
        }
    }

    /// The size first tried for a stored size: `scale` of it, at most `maxSide` a side, never larger.
    /// Each first-size pixel averages at most 256 × 256 stored ones (the averaging sums are 32 bits).
    static func firstSizeOf(_ stored: ImageDimensions, scale: Double) -> ImageDimensions {
        let longest = max(stored.width, stored.height)
        let scale = min(scale, Double(maxSide) / Double(longest), 1)
        let width = max(1, (stored.width + 255) / 256, WholeNumber.clamped(Double(stored.width) * scale))
        let height = max(1, (stored.height + 255) / 256, WholeNumber.clamped(Double(stored.height) * scale))
        return ImageDimensions(width: min(width, stored.width), height: min(height, stored.height))
    }

    static func checkPixelRules(_ size: ImageDimensions) throws(Failure) {
        guard ProductRules.pixelIssue(file: "", size) == nil else { throw .outsidePixelRules(size) }
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

    // MARK: encoders

    /// RGB (or gray: 1 channel) as a JPEG, baseline unless `progressive`.
    static func encodeJPEG(_ image: PixelImage, quality: Int, progressive: Bool = false) throws(Failure) -> Data {
        guard image.channels == 3 || image.channels == 1 else { throw .unreadable }
        var output: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            om_jpeg_encode(pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(image.channels),
                           Int32(quality), progressive ? 1 : 0, &output, &length)
        }
        guard status == 0, let output else { throw .unreadable }
        defer { free(output) }
        return Data(bytes: output, count: Int(length))
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
