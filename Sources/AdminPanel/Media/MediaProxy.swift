import Foundation
import HTTPServer
import OpenMarketCore

extension MediaController {
    /// `GET /media/{path...}`: a product image fetched from the configured API origin only
    /// (the route maps a path, never a host), kept in a bounded memory cache, with an ETag.
    /// Only bytes that really are JPEG/PNG/GIF/WebP are passed on, so it cannot proxy pages or JSON.
    func mediaFile(_ request: HTTPRequest, _ context: PanelContext) async throws -> HTTPResponse {
        let l = context.localizer
        var path = request.pathParameters["path"] ?? ""
        while path.hasPrefix("/") { path.removeFirst() }
        guard let url = media.upstreamURL(forPath: path) else { return Self.plain(404, l("media_not_found")) }
        let key = url.absoluteString

        let cached: CachedMedia
        if let hit = await mediaCache.get(key) {
            cached = hit
        } else {
            // Simultaneous misses for one image share one upstream fetch.
            switch await mediaFetches.run(key, { [self] in await fetchMedia(url, cacheKey: key) }) {
            case .image(let image): cached = image
            case .failure(let status, let messageKey): return Self.plain(status, l(messageKey))
            }
        }

        var response: HTTPResponse
        if let tags = request.headers["If-None-Match"], EntityTag.matches(ifNoneMatch: tags, etag: cached.etag) {
            response = HTTPResponse(status: 304)
        } else {
            response = HTTPResponse(status: 200, body: .data(cached.data))
            response.headers["Content-Type"] = cached.contentType
        }
        response.headers["ETag"] = cached.etag
        response.headers["Cache-Control"] = "public, max-age=86400"
        return response
    }

    /// What one upstream fetch of an image gave: the image (now cached) or the status and the
    /// message (a catalog key, so each waiting reader gets it in their own language).
    enum MediaFetch: Sendable {
        case image(CachedMedia)
        case failure(status: Int, messageKey: String)
    }

    private func fetchMedia(_ url: URL, cacheKey: String) async -> MediaFetch {
        let answer: TransportResponse
        do {
            answer = try await transport.send(TransportRequest(method: "GET", url: url, headers: [],
                                                               body: nil, timeout: pages.configuration.api.timeout))
        } catch {
            return .failure(status: 502, messageKey: "media_unreachable")
        }
        guard answer.status == 200 else {
            return .failure(status: answer.status == 404 ? 404 : 502, messageKey: "media_unavailable")
        }
        guard let format = ImageFormat.detect(answer.body) else { return .failure(status: 502, messageKey: "media_not_an_image") }
        let image = CachedMedia(data: answer.body, contentType: format.mimeType, etag: EntityTag.of(answer.body))
        await mediaCache.put(cacheKey, image)
        return .image(image)
    }

    static func plain(_ status: Int, _ text: String) -> HTTPResponse {
        var response = HTTPResponse.text(text, status: status)
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
