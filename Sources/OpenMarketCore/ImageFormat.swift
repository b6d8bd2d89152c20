import Foundation

/// The image formats the API stores, recognised by their first bytes only: a filename or a
/// declared Content-Type is never trusted (an SVG renamed `.png` is still refused).
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, gif, webp

    public static func detect(_ bytes: Data) -> ImageFormat? {
        let head = [UInt8](bytes.prefix(12))
        func starts(with signature: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + signature.count
                && Array(head[offset..<(offset + signature.count)]) == signature
        }
        if starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) { return .gif }
        if starts(with: Array("RIFF".utf8)) && starts(with: Array("WEBP".utf8), at: 8) { return .webp }
        return nil
    }

    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .webp: "image/webp"
        }
    }

    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .gif: "gif"
        case .webp: "webp"
        }
    }
}
