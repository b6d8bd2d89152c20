// Stand-in until OpenMarketCore's `Dialect` is merged; deleted then.
public enum Dialect: String, Sendable, CaseIterable { case v2a, v2b }
public enum Currency: String, Sendable, Codable, CaseIterable { case KRW, USD }
public enum ImageFormat: String, Sendable {
    case jpeg, png, gif, webp
    public static func detect(_ bytes: Data) -> ImageFormat? {
        let b = [UInt8](bytes.prefix(12))
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8)) { return .gif }
        if b.count == 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) { return .webp }
        return nil
    }
    public var mimeType: String { "image/" + rawValue }
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
}
import Foundation
