import Foundation
import OpenMarketCore

/// Forgets a deleted product's images in the media cache (every delete, through `ProductWriter`).
struct MediaEviction: Sendable {
    let media: MediaLinks
    let mediaCache: MediaCache

    /// Drops a deleted product's images from the media cache: no page links them any more, so
    /// they would only hold memory until evicted (the soak deletes hundreds a minute).
    func forgetMedia(of product: ProductDetail) async {
        let urls = [product.thumbnail] + product.images.flatMap { [$0.url, $0.thumbnailURL] }
        let keys = urls.compactMap { url -> String? in
            guard let path = media.panelPath(for: url)?.dropFirst("/media/".count).removingPercentEncoding else { return nil }
            return media.upstreamURL(forPath: path)?.absoluteString
        }
        await mediaCache.remove(keys)
    }
}
