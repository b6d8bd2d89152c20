import Foundation

/// Writes the register request's `multipart/form-data` body (RFC 7578): one `params` part
/// (application/json) and one `images` part per file, each with the Content-Type of its real
/// format. Lines end in CRLF; the body ends with the closing delimiter and a CRLF.
public struct MultipartEncoder: Sendable {
    public let boundary: String

    /// `boundary` must be 1–70 characters that cannot occur in the data; the random default
    /// (a fixed prefix and 32 random hex digits) makes a collision practically impossible.
    public init(boundary: String = MultipartEncoder.randomBoundary()) {
        self.boundary = boundary
    }

    public static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let hex = (0..<2).map { _ in
            let value = generator.next() as UInt64
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return "OpenMarketBoundary" + hex.joined()
    }

    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    public func encode(params: Data, images: [ImageUpload]) -> Data {
        var body = Data()
        appendPart(to: &body, disposition: "form-data; name=\"params\"",
                   contentType: "application/json", content: params)
        for (index, image) in images.enumerated() {
            let format = ImageFormat.detect(image.data)
            // The API requires a filename on every image part.
            let filename = image.filename.isEmpty
                ? "image-\(index + 1).\(format?.fileExtension ?? "bin")" : image.filename
            appendPart(to: &body,
                       disposition: "form-data; name=\"images\"; " + Self.filenameParameters(filename),
                       contentType: format?.mimeType ?? "application/octet-stream",
                       content: image.data)
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return body
    }

    func appendPart(to body: inout Data, disposition: String, contentType: String, content: Data) {
        body.append(Data(("--\(boundary)\r\n"
            + "Content-Disposition: \(disposition)\r\n"
            + "Content-Type: \(contentType)\r\n\r\n").utf8))
        body.append(content)
        body.append(Data("\r\n".utf8))
    }

    /// `filename="…"` that no parser can misread, plus `filename*=UTF-8''…` when the name is not
    /// ASCII. In the quoted value, `"`, `\`, control characters (CR, LF…) and non-ASCII
    /// bytes are percent-encoded (as HTML5 browsers do for `"` CR LF; RFC 7578 §4.2 allows
    /// percent-encoding for non-ASCII names), so the header stays one ASCII line and no quote or
    /// backslash can end or escape the quoted string.
    static func filenameParameters(_ filename: String) -> String {
        let fallback = PercentEncoding.encode(filename) { byte in
            switch byte {
            case 0x22, 0x5C, 0x00...0x1F, 0x7F...0xFF: false
            default: true
            }
        }
        let parameter = "filename=\"\(fallback)\""
        guard filename.utf8.contains(where: { $0 >= 0x80 }) else { return parameter }
        // RFC 8187 ext-value: only attr-chars stay literal.
        return parameter + "; filename*=UTF-8''" + PercentEncoding.encode(filename, keeping: isAttrChar)
    }

    private static func isAttrChar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$&+-.^_`|~".utf8.contains(byte)
        }
    }
}
