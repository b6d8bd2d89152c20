// fuzz-module-of: ImageDimensions.swift
// Fuzz target: the image-dimension decoder (PNG, JPEG, GIF, WebP headers) the panel runs on every
// uploaded file, and the format sniffer beside it. A size it reports is never negative, and its
// pixel count never traps, however large the declared sides.
import Foundation

@_cdecl("fuzz_image_dimensions")
public func fuzzImageDimensions(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let dimensions = ImageDimensions.read(bytes)
    if let dimensions {
        fuzzCheck(dimensions.width >= 0 && dimensions.height >= 0, "a negative size: \(dimensions)")
        fuzzCheck(dimensions.pixelCount >= 0, "a negative pixel count: \(dimensions)")
    }
    fuzzCheck(ImageDimensions.read(Data(bytes)) == dimensions, "Data and [UInt8] read differently")
    _ = ImageFormat.detect(Data(bytes))
    return 0
}
