import Foundation

/// The image formats the API stores, recognised by their first bytes only: a filename or a
/// declared Content-Type is never trusted (an SVG renamed `.png` is still refused).
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, gif, webp

    public static func detect(_ bytes: Data) -> ImageFormat? {
        detect(ByteReader(bytes))
    }

    static func detect(_ head: ByteReader) -> ImageFormat? {
        if head.byte(at: 0) == 0xFF && head.byte(at: 1) == 0xD8 && head.byte(at: 2) == 0xFF { return .jpeg }
        if head.matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], at: 0) { return .png }
        if head.matches("GIF87a", at: 0) || head.matches("GIF89a", at: 0) { return .gif }
        if head.matches("RIFF", at: 0) && head.matches("WEBP", at: 8) { return .webp }
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
