import Foundation
import HTTPServer
import OpenMarketCore

/// Serves stored images: the Content-Type of their real format, a strong ETag (a file name is
/// never reused for other bytes), and a year-long immutable Cache-Control.
struct MediaResponses: Sendable {
    let directory: MediaDirectory

    static let cacheControl = "public, max-age=31536000, immutable"

    func response(name: String, request: HTTPRequest) -> HTTPResponse {
        var response = unlabelled(name: name, request: request)
        // Browsers must not guess another type (an HTML-looking image) from the bytes.
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response
    }

    private func unlabelled(name: String, request: HTTPRequest) -> HTTPResponse {
        guard let path = directory.path(of: name), let format = Self.format(ofFileNamed: name),
              FileManager.default.fileExists(atPath: path) else {
            return ErrorResponses.json(.notFound("no image named \(name)"))
        }
        let etag = "\"" + name.prefix { $0 != "." } + "\""
        var headers = HTTPHeaders()
        headers.add("ETag", etag)
        headers.add("Cache-Control", Self.cacheControl)
        if let match = request.headers["if-none-match"],
           match == "*" || match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag }) {
            return HTTPResponse(status: 304, headers: headers)
        }
        headers.add("Content-Type", format.mimeType)
        return HTTPResponse(status: 200, headers: headers, body: .file(path: path))
    }

    static func format(ofFileNamed name: String) -> ImageFormat? {
        let fileExtension = name.split(separator: ".").last.map(String.init) ?? ""
        return ImageFormat.allCases.first { $0.fileExtension == fileExtension }
    }
}
