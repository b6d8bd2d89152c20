import Foundation

/// An image file chosen by the seller: its original filename and its bytes.
public struct ImageUpload: Sendable, Equatable {
    public var filename: String
    public var data: Data

    public init(filename: String, data: Data) {
        self.filename = filename
        self.data = data
    }

    /// The real format, from the bytes (nil when it is not an accepted image).
    public var format: ImageFormat? { ImageFormat.detect(data) }
}
